'use strict';
/**
 * `npm run reliability [-- --short] [-- --only fuzz,probes,chaos,kill,twin,scale] [-- --seed N]`
 *
 * Builds nothing itself (the npm script runs `npm run build` first): starts the built-in upstream
 * simulator in this process, then each phase starts the production gateway (`node
 * dist/src/main.js`) on a fresh database (SQLite in a temp dir, or DATABASE_URL + REDIS_URL
 * emptied), drives it over loopback only, and audits it. Prints one table; exit 1 when a row that
 * must be 0 is not.
 */
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');
const { leaksIn } = require('./tasks');

const PHASES = {
  fuzz: require('./fuzz'),
  probes: require('./probes'),
  chaos: require('./chaos'),
  kill: require('./kill'),
  twin: require('./twin'),
  scale: require('./scale'),
};

function parseArgs(argv) {
  const args = { short: false, only: Object.keys(PHASES), seed: Date.now() % 1_000_000, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--short') args.short = true;
    else if (a === '--keep') args.keep = true;
    else if (a === '--only') args.only = argv[++i].split(',');
    else if (a.startsWith('--only=')) args.only = a.slice(7).split(',');
    else if (a === '--seed') args.seed = Number(argv[++i]);
    else if (a.startsWith('--seed=')) args.seed = Number(a.slice(7));
    else throw new Error(`unknown argument ${a} (--short, --only fuzz,probes,chaos,kill,twin,scale, --seed N, --keep)`);
  }
  for (const p of args.only) if (!PHASES[p]) throw new Error(`unknown phase ${p}`);
  return args;
}

/** The table's rows: [key, label, must be 0]. */
const ROWS = [
  ['casesFuzzed', 'cases fuzzed (OpenAPI routes x broken inputs)', false],
  ['faultsInjected', 'upstream faults injected', false],
  ['killsSurvived', 'kill -9 survived (restarts on the same database)', false],
  ['instances', 'gateway instances on one database', false],
  ['tasksCreated', 'tasks created (IDs clients received)', false],
  ['tasksEnded', 'tasks ended (terminal)', false],
  ['tasksLost', 'tasks lost (404 or never ended)', true],
  ['doubleCharges', 'double charges', true],
  ['openHolds', 'open holds left (units, after the sweep)', true],
  ['inFlightLeft', 'in-flight slots left (after the sweep)', true],
  ['ledgerMismatches', 'ledger mismatches (ledger/verify)', true],
  ['chargedNoClient', 'charged tasks no client holds', true],
  ['retries409', 'retries still 409 after 30 s', true],
  ['reconcileRetries409', 'keyed retries still 409 20 s after the instance reconciling their create was killed', true],
  ['secondTaskOnRetry', 'retries answered with a second task', true],
  ['fuzzCharged', 'money moved by fuzz input (units)', true],
  ['crossAccountLeaks', 'cross-account reads that leaked', true],
  ['restrictedKeyReads', "restricted-key reads of other models' tasks", true],
  ['privateCallbacks', 'private/loopback/metadata callback URLs accepted', true],
  ['secretsLeaked', 'responses/log lines with a key, credential, Base64 or stack', true],
  ['uncappedEchoes', 'error messages echoing an uncapped client value', true],
  ['fiveXx', '5xx answers to client input', true],
  ['badErrorShape', 'errors without the gateway/native error object', true],
  ['hangs', 'requests that hung (no answer in time)', true],
  ['limitBreaches', 'rate-limit / in-flight cap breaches across instances', true],
  ['callbackDuplicates', 'client callbacks delivered twice (same webhook-id)', true],
  ['callbacksMissing', 'client callbacks never delivered', true],
  [
    'outageBadAnswers',
    'answers during kill -9 / Redis / PostgreSQL restarts other than 2xx, 4xx or 503 + Retry-After',
    true,
  ],
  ['outageSlowAnswers', 'answers while PostgreSQL is down: errors after 2.5 s, successes after 5 s', true],
  ['pollShareOff', 'instances whose share of upstream polls is off a third by over 10 points', true],
  ['resultsNotKeptOnce', 'result files not kept exactly once', true],
  ['resultDownloadsFailed', 'result downloads that failed', true],
];

function newReport() {
  return Object.fromEntries(ROWS.map(([key]) => [key, 0]));
}

/** Checks every client answer: no 5xx (503 allowed where the upstream was made to fail), no hang, error shape, no leak. */
function makeObserver(report, secrets, examples) {
  const example = (kind, text) => {
    examples[kind] = examples[kind] || [];
    if (examples[kind].length < 3) examples[kind].push(text.slice(0, 300));
  };
  return (label, res, opts = {}) => {
    if (res.timedOut && !opts.allowTimeout) {
      report.hangs++;
      example('hang', `${label} ${opts.path || ''}`);
    }
    if (res.status >= 500 && !(opts.upstreamFaults && res.status === 503)) {
      report.fiveXx++;
      example('5xx', `${label} ${opts.path || ''} -> ${res.status} ${res.text}`);
    }
    const leaks = leaksIn(res.text, secrets);
    if (leaks.length) {
      report.secretsLeaked++;
      example('leak', `${label} ${opts.path || ''}: ${leaks.join(', ')}`);
    }
    if (res.status >= 400 && opts.path && !opts.skipShape) {
      const problem = errorShapeProblem(opts.path, res);
      if (problem) {
        report.badErrorShape++;
        example('error shape', `${label} ${opts.path} -> ${res.status}: ${problem}: ${(res.text || '').slice(0, 200)}`);
      }
    }
  };
}

/** The gateway error object, plus the native fields of the family under its path prefix. */
function errorShapeProblem(pathname, res) {
  const body = res.json;
  if (!body || typeof body !== 'object') return 'not JSON';
  const e = body.error;
  if (
    !e ||
    typeof e.message !== 'string' ||
    typeof e.type !== 'string' ||
    typeof e.code !== 'string' ||
    !('param' in e)
  )
    return 'no error object';
  if (pathname.startsWith('/kl/')) {
    if (
      !Number.isInteger(body.code) ||
      body.code === 0 ||
      typeof body.message !== 'string' ||
      typeof body.request_id !== 'string' ||
      body.data !== null
    )
      return 'no kl native fields';
  } else if (pathname.startsWith('/ax/')) {
    if (typeof body.code !== 'string' || typeof body.message !== 'string' || typeof body.request_id !== 'string')
      return 'no ax native fields';
  } else if (pathname.startsWith('/vd/')) {
    if (
      body.code !== res.status ||
      typeof body.reason !== 'string' ||
      typeof body.message !== 'string' ||
      !body.metadata ||
      typeof body.metadata.trace_id !== 'string'
    )
      return 'no vd native fields';
  }
  return null;
}

function printTable(report, context) {
  const lines = [];
  lines.push(`Reliability run: ${context}`);
  lines.push('');
  lines.push('| measure | value | must be 0 |');
  lines.push('| --- | ---: | --- |');
  let failed = 0;
  for (const [key, label, mustBeZero] of ROWS) {
    const value = report[key];
    const mark = mustBeZero ? (value === 0 ? 'ok' : 'NOT OK') : '';
    if (mustBeZero && value !== 0) failed++;
    lines.push(`| ${label} | ${typeof value === 'number' ? value.toLocaleString('en-US') : value} | ${mark} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return failed;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const store = lib.storeFromEnv();
  const report = newReport();
  const secrets = new Map([['admin token', lib.ADMIN_TOKEN]]);
  const examples = {};
  const details = {};
  const figureTables = [];
  /** Synchronous stops of what a phase started outside the run's gateways, for an interrupted run. */
  const cleanups = new Set();
  const runDir = lib.tempDir('gw-reliability-');
  const { startSimulator } = lib.requireDist('simulator/simulator.js');
  const sim = await startSimulator({ taskMs: 1500 });
  for (const [name, value] of [
    ['kl upstream access key', sim.endpoints.kl.accessKey],
    ['kl upstream secret key', sim.endpoints.kl.secretKey],
    ['kl upstream api key', sim.endpoints.kl.apiKey],
    ['ax upstream key', sim.endpoints.ax.apiKey],
    ['vd upstream key', sim.endpoints.vd.apiKey],
  ])
    secrets.set(name, value);
  const gateways = [];
  const observe = makeObserver(report, secrets, examples);

  const ctx = {
    lib,
    sim,
    store,
    report,
    short: args.short,
    seed: args.seed,
    dir: runDir,
    observe,
    secret: (name, value) => secrets.set(name, value),
    /** `fn` (synchronous) stops what a phase started, if the run is interrupted; returns its removal. */
    onInterrupt: (fn) => {
      cleanups.add(fn);
      return () => cleanups.delete(fn);
    },
    /** A table of a phase's figures, printed after the run's table. */
    figures: (title, header, rows) => figureTables.push({ title, header, rows }),
    detail: (label, value) => {
      details[label] = value;
      lib.log(`${label}: ${JSON.stringify(value)}`);
    },
    example: (kind, text) => {
      examples[kind] = examples[kind] || [];
      if (examples[kind].length < 3) examples[kind].push(String(text).slice(0, 300));
    },
    /** `count` gateways on one fresh database (same env), started; stopped at the end of the run in any case. */
    async startGateways(name, extraEnv = {}, count = 1) {
      const dir = path.join(runDir, name);
      fs.mkdirSync(dir, { recursive: true });
      const db = await lib.freshDatabase(store, dir);
      const list = [];
      for (let i = 0; i < count; i++) {
        const gw = new lib.Gateway({
          name: `${name}#${i + 1}`,
          env: lib.gatewayEnv(sim, db, extraEnv),
          port: await lib.freePort(),
          logFile: path.join(dir, `gateway-${i + 1}.log`),
        });
        gateways.push(gw);
        await gw.start();
        list.push(gw);
      }
      report.instances = Math.max(report.instances, count);
      return list;
    },
    /** A gateway a phase built itself (on a database of its own): stopped and its log scanned like the others. */
    adopt(gw) {
      gateways.push(gw);
      return gw;
    },
    async startGateway(name, extraEnv = {}) {
      return (await ctx.startGateways(name, extraEnv, 1))[0];
    },
    /** One gateway (as `startGateway`), its admin client and an account named `name` (its key kept secret). */
    async gatewayWithAccount(name, extraEnv = {}) {
      const gw = await ctx.startGateway(name, extraEnv);
      const admin = lib.adminClient(gw.url);
      const acct = await admin.account(name);
      ctx.secret(`${name} account key`, acct.key);
      return { gw, admin, acct };
    },
    /** Waits for holds and in-flight slots to reach 0 (deadlines, sweep), then audits. */
    async settled(admin, accountIds, clientIds, timeoutMs) {
      const t0 = Date.now();
      const done = await lib.waitFor(
        async () => {
          const a = await lib.audit(admin, accountIds, clientIds);
          return a.held === 0 && a.inFlight === 0 ? a : null;
        },
        timeoutMs,
        1000,
      );
      lib.log(`holds and slots ${done ? 'back to 0' : 'still open'} after ${Date.now() - t0} ms`);
      return done || lib.audit(admin, accountIds, clientIds);
    },
    account(final, label) {
      report.doubleCharges += final.doubleCharges;
      report.openHolds += final.held;
      report.inFlightLeft += final.inFlight;
      report.ledgerMismatches += final.ledgerMismatches;
      report.chargedNoClient += final.orphanCharges;
      ctx.detail(`${label} audit`, {
        ledgerOk: final.ledgerOk,
        held: final.held,
        inFlight: final.inFlight,
        doubleCharges: final.doubleCharges,
        chargedNoClient: final.orphanCharges,
      });
    },
  };

  const interrupted = () => {
    for (const gw of gateways) if (gw.child) gw.child.kill('SIGKILL');
    for (const fn of cleanups) fn();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  let crashed = null;
  try {
    for (const phase of args.only) {
      const t0 = Date.now();
      lib.log(
        `phase ${phase} (${args.short ? 'short' : 'long'}, seed ${args.seed}, ${store.kind}${store.redisUrl ? ' + Redis' : ''})`,
      );
      sim.setChaos(null);
      sim.setTaskMs(1500);
      await PHASES[phase].run(ctx);
      lib.log(`phase ${phase} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    crashed = error;
  } finally {
    for (const gw of gateways) await gw.kill();
    // Every line the gateways logged must be clean too (keys, credentials, Base64, stack traces).
    for (const gw of gateways) scanLog(gw.logFile, secrets, report, ctx.example);
    await sim.close();
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const context = `${args.short ? 'short' : 'long'} form, phases ${args.only.join(',')}, ${store.kind}${store.redisUrl ? ' + Redis' : ''}, seed ${args.seed}, ${seconds} s, Node ${process.version}`;
  const failed = printTable(report, context);
  for (const { title, header, rows } of figureTables)
    process.stdout.write(
      `\n${title}\n\n| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |\n${rows
        .map((row) => `| ${row.join(' | ')} |`)
        .join('\n')}\n`,
    );
  if (Object.keys(examples).length)
    process.stdout.write(
      `\nExamples:\n${Object.entries(examples)
        .map(([k, v]) => v.map((t) => `  ${k}: ${t}`).join('\n'))
        .join('\n')}\n`,
    );
  if (!args.keep) fs.rmSync(runDir, { recursive: true, force: true });
  else process.stdout.write(`\nlogs and databases kept in ${runDir}\n`);
  if (crashed) {
    process.stderr.write(`\nreliability run aborted: ${crashed.stack || crashed}\n`);
    process.exit(2);
  }
  process.stdout.write(failed ? `\n${failed} row(s) NOT OK\n` : '\nall rows ok\n');
  process.exit(failed ? 1 : 0);
}

function scanLog(file, secrets, report, example) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    const leaks = leaksIn(line, secrets);
    if (leaks.length) {
      report.secretsLeaked++;
      example(
        'log leak',
        `${path.basename(path.dirname(file))}/${path.basename(file)}: ${leaks.join(', ')}: ${line.slice(0, 200)}`,
      );
    }
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(2);
});
