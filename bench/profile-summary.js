'use strict';
/**
 * Summarises a `node --cpu-prof` profile of the gateway by cost centre.
 *
 *   node bench/profile-summary.js <file.cpuprofile | dir> [--top 25] [--detail] [--json out.json]
 *
 * Each sample is attributed to the innermost frame on its stack that belongs to a known cost
 * centre (so JSON.stringify called by pino counts as logging, node's http called by axios as the
 * upstream client, better-sqlite3 called by TypeORM as persistence). Samples whose whole stack is
 * Node internals count as "node http/net (server side)"; (garbage collector), (idle) and
 * (program) are their own lines. Shares are of busy time (idle excluded), from the first request
 * served on (start-up is left out).
 */
const fs = require('node:fs');
const path = require('node:path');

/** First match wins, tested innermost frame first. `url` is the script path, `fn` the function name. */
const CENTRES = [
  [
    'key lookup (principal, API-key hash)',
    (f) =>
      /core\/accounts\/(principal\.service|api-key-secret|guards\/api-key\.guard|repositories\/api-keys)/.test(f.url),
  ],
  [
    'model grant lookup',
    (f) =>
      /core\/accounts\/(guards\/model-access\.guard|repositories\/model-grants)|core\/models\/catalogue/.test(f.url),
  ],
  ['rate limit', (f) => /rate-limit|rate-limiter-flexible/.test(f.url)],
  // Not the guard's handler wrapper (`wrapped`): every create runs inside it.
  ['idempotency', (f) => /idempotency/.test(f.url) && f.functionName !== 'wrapped'],
  [
    'validation (class-validator, rules)',
    (f) =>
      /class-validator|class-transformer|platform\/validation|families\/.*\.(rules|dto)\.js|families\/[a-z]+\/rules\/|families\/common\/|text-rules|validator\/lib/.test(
        f.url,
      ),
  ],
  [
    'logging (pino, nestjs-pino)',
    (f) =>
      /node_modules\/(pino|pino-http|pino-std-serializers|nestjs-pino|sonic-boom|fast-redact|thread-stream|on-exit-leak-free|quick-format-unescaped|safe-stable-stringify|fast-safe-stringify)\//.test(
        f.url,
      ) || /platform\/logging/.test(f.url),
  ],
  [
    'metrics (prom-client)',
    (f) => /node_modules\/(prom-client|tdigest|bintrees)\//.test(f.url) || /platform\/metrics/.test(f.url),
  ],
  [
    'upstream client (axios, transport)',
    (f) =>
      /node_modules\/(axios|follow-redirects|form-data|proxy-from-env|cockatiel|request-filtering-agent)\//.test(
        f.url,
      ) || /dist\/src\/upstream\//.test(f.url),
  ],
  [
    'persistence (TypeORM, SQLite)',
    (f) =>
      /node_modules\/(typeorm|better-sqlite3|sqlite3|pg|app-root-path|reflect-metadata)\//.test(f.url) ||
      /platform\/database|repository\.js|\.repository\.js|billing\/ledger|entities\//.test(f.url),
  ],
  // Before the two below: the store's fs calls (open, mkdir) are native frames under platform/storage.
  [
    'results kept (keep worker, object store)',
    (f) => /dist\/src\/(core\/result-keeping|platform\/storage)\//.test(f.url),
  ],
  ['task engine, presenters (app code)', (f) => /dist\/src\/(core|api)\//.test(f.url)],
  ['request context, ids, errors (platform)', (f) => /dist\/src\/platform\//.test(f.url)],
  [
    'Nest + Express + rxjs',
    (f) =>
      /node_modules\/(@nestjs|express|router|body-parser|raw-body|iconv-lite|type-is|mime-types|content-type|qs|side-channel|finalhandler|send|serve-static|on-finished|parseurl|path-to-regexp|rxjs|tslib|depd|debug|http-errors|statuses|media-typer|negotiator|accepts|vary|cookie|encodeurl|escape-html|etag|fresh|range-parser|proxy-addr|forwarded|ipaddr\.js|merge-descriptors|utils-merge|methods|array-flatten|setprototypeof|safe-buffer|bytes|unpipe|ee-first|destroy|toidentifier|inherits|call-bind|get-intrinsic|has-symbols|function-bind|es-errors|gopd|hasown|math-intrinsics|dunder-proto|es-object-atoms|es-define-property|call-bound|object-inspect|side-channel-list|side-channel-map|side-channel-weakmap|uid|iterare|fast-safe-stringify|load-esm)\//.test(
        f.url,
      ),
  ],
];

function categorise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const memo = new Map();
  const centreOf = (id) => {
    if (memo.has(id)) return memo.get(id);
    const frame = byId.get(id).callFrame;
    let result;
    if (frame.functionName === '(garbage collector)') result = 'garbage collector';
    else if (frame.functionName === '(idle)') result = 'idle';
    else if (frame.functionName === '(program)') result = 'program (native, unattributed)';
    else if (frame.functionName === '(root)') result = 'node http/net, event loop (no app frame)';
    else {
      const hit = frame.url ? CENTRES.find(([, test]) => test(frame)) : undefined;
      result = hit ? hit[0] : parent.has(id) ? centreOf(parent.get(id)) : 'node http/net, event loop (no app frame)';
    }
    memo.set(id, result);
    return result;
  };

  const totals = new Map();
  const selfByFn = new Map();
  const byCentreFn = new Map();
  let all = 0;
  const { samples, timeDeltas } = profile;
  // Start-up (module loading, Nest wiring) is not the hot path: skip samples until the first one
  // that serves an HTTP request through Express.
  const servesHttp = (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur))
      if (/node_modules\/(router|express)\//.test(byId.get(cur).callFrame.url)) return true;
    return false;
  };
  let first = 0;
  while (first < samples.length && !servesHttp(samples[first])) first++;
  for (let i = first; i < samples.length; i++) {
    const dt = Math.max(0, timeDeltas[i] || 0);
    const centre = centreOf(samples[i]);
    totals.set(centre, (totals.get(centre) || 0) + dt);
    all += dt;
    const frame = byId.get(samples[i]).callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    selfByFn.set(key, (selfByFn.get(key) || 0) + dt);
    const ck = `${centre}\u0000${key}`;
    byCentreFn.set(ck, (byCentreFn.get(ck) || 0) + dt);
  }
  return { totals, selfByFn, byCentreFn, all };
}

function shortUrl(url) {
  if (!url) return '';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const d = url.indexOf('dist/src/');
  if (d >= 0) return url.slice(d + 'dist/'.length);
  return url.replace(/^file:\/\//, '').replace(/^node:/, 'node:');
}

function summarise(files, top = 25) {
  const totals = new Map();
  const selfByFn = new Map();
  const byCentreFn = new Map();
  let all = 0;
  for (const file of files) {
    const part = categorise(JSON.parse(fs.readFileSync(file, 'utf8')));
    for (const [k, v] of part.totals) totals.set(k, (totals.get(k) || 0) + v);
    for (const [k, v] of part.selfByFn) selfByFn.set(k, (selfByFn.get(k) || 0) + v);
    for (const [k, v] of part.byCentreFn) byCentreFn.set(k, (byCentreFn.get(k) || 0) + v);
    all += part.all;
  }
  const idle = totals.get('idle') || 0;
  const busy = all - idle;
  const centres = [...totals.entries()]
    .filter(([k]) => k !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(([centre, us]) => ({
      centre,
      ms: Math.round(us / 1000),
      share: Math.round((1000 * us) / busy) / 10,
      topFunctions: [...byCentreFn.entries()]
        .filter(([k]) => k.startsWith(`${centre}\u0000`))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, v]) => ({ fn: k.split('\u0000')[1], ms: Math.round(v / 1000) })),
    }));
  const functions = [...selfByFn.entries()]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, us]) => ({ fn, ms: Math.round(us / 1000), share: Math.round((1000 * us) / busy) / 10 }));
  return { busyMs: Math.round(busy / 1000), idleMs: Math.round(idle / 1000), centres, functions };
}

function main() {
  const argv = process.argv.slice(2);
  const target = argv.find((a) => !a.startsWith('--'));
  if (!target)
    throw new Error('usage: node bench/profile-summary.js <file.cpuprofile | dir> [--top N] [--json out.json]');
  const top = Number(argv[argv.indexOf('--top') + 1]) || 25;
  const files = fs.statSync(target).isDirectory()
    ? fs
        .readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(target, f))
    : [target];
  const summary = summarise(files, argv.includes('--top') ? top : 25);
  const lines = [
    `busy ${summary.busyMs} ms, idle ${summary.idleMs} ms (${files.length} profile${files.length > 1 ? 's' : ''})`,
    '',
  ];
  lines.push('| cost centre | ms | share of busy |', '| --- | --- | --- |');
  for (const c of summary.centres) lines.push(`| ${c.centre} | ${c.ms} | ${c.share}% |`);
  if (argv.includes('--detail')) {
    for (const c of summary.centres) {
      lines.push('', `${c.centre}:`);
      for (const f of c.topFunctions) lines.push(`  ${String(f.ms).padStart(6)} ms  ${f.fn}`);
    }
  }
  lines.push('', '| top functions (self time) | ms | share |', '| --- | --- | --- |');
  for (const f of summary.functions) lines.push(`| \`${f.fn}\` | ${f.ms} | ${f.share}% |`);
  process.stdout.write(`${lines.join('\n')}\n`);
  const jsonAt = argv.indexOf('--json');
  if (jsonAt >= 0) fs.writeFileSync(argv[jsonAt + 1], `${JSON.stringify(summary, null, 2)}\n`);
}

if (require.main === module) main();
module.exports = { summarise };
