'use strict';
/**
 * kill -9 under load: clients create tasks with an Idempotency-Key and retry every request that got
 * no answer (or 409 in progress, or 503) with the same key for up to 30 s, while the gateway is
 * killed with SIGKILL at random moments and restarted on the same database and port.
 */
const { KINDS, KIND_NAMES, drain } = require('./tasks');

const RETRY_WINDOW_MS = 30_000;
/** A task's sync lease (15 s) and time to spare: a retry still 409 this long after the kill is counted. */
const RECONCILE_RETRY_WITHIN_MS = 20_000;

async function run(ctx) {
  const { lib, report } = ctx;
  const kills = ctx.short ? 5 : 10;
  const workers = 4;
  const { gw, admin, acct } = await ctx.gatewayWithAccount('kill', {
    UPSTREAM_TIMEOUT_MS: '5000',
    TASK_DEADLINE_MS: '12000',
  });
  ctx.sim.setTaskMs(2000);
  const auth = { authorization: `Bearer ${acct.key}` };
  const random = lib.rng(ctx.seed + 2);

  const received = new Map(); // idempotency key -> task ID (the first final answer)
  const stats = { requests: 0, cut: 0, retries: 0, still409: 0, unanswered: 0, secondId: 0, answers: {} };
  let loadOn = true;

  async function logicalRequest(w, n) {
    const kind = KIND_NAMES[(w + n) % KIND_NAMES.length];
    const key = `kill-${w}-${n}`;
    const body = KINDS[kind].body(`k${w}.${n}`);
    const first = Date.now();
    stats.requests++;
    let cut = false;
    let last;
    for (let attempt = 0; ; attempt++) {
      if (attempt) stats.retries++;
      const res = await lib.request('POST', `${gw.url}${KINDS[kind].path}`, {
        headers: { ...auth, 'idempotency-key': key },
        body,
        timeoutMs: 10_000,
      });
      ctx.observe('kill create', res, {
        upstreamFaults: true,
        allowTimeout: true,
        path: KINDS[kind].path,
        skipShape: res.status === 0,
      });
      last = res;
      if (res.status === 0) cut = true;
      const retryable =
        res.status === 0 ||
        res.status === 503 ||
        (res.status === 409 && /idempotency_in_progress/.test(res.text || ''));
      if (!retryable || Date.now() - first > RETRY_WINDOW_MS) break;
      await lib.sleep(300 + Math.floor(random() * 400));
    }
    if (cut) stats.cut++;
    stats.answers[last.status || last.error] = (stats.answers[last.status || last.error] || 0) + 1;
    if (last.status === 409) stats.still409++;
    if (last.status === 0) stats.unanswered++;
    const id = last.status >= 200 && last.status < 300 ? KINDS[kind].idOf(last.json) : undefined;
    if (id) {
      if (received.has(key) && received.get(key).id !== id) stats.secondId++;
      received.set(key, { id, kind });
    }
  }

  const clients = Array.from({ length: workers }, async (_, w) => {
    for (let n = 0; loadOn; n++) {
      await logicalRequest(w, n);
      await lib.sleep(100 + Math.floor(random() * 200));
    }
  });

  let survived = 0;
  for (let k = 0; k < kills; k++) {
    await lib.sleep(1000 + Math.floor(random() * 2500));
    await gw.kill();
    await lib.sleep(100 + Math.floor(random() * 500));
    const t0 = Date.now();
    await gw.start();
    survived++;
    lib.log(`kill ${k + 1}/${kills}: restarted in ${Date.now() - t0} ms, ${received.size} task IDs received so far`);
  }
  await lib.sleep(1500);
  loadOn = false;
  await Promise.all(clients);
  report.killsSurvived += survived;
  report.retries409 += stats.still409;
  report.secondTaskOnRetry += stats.secondId;

  lib.log(`load stopped; ${received.size} task IDs received; draining`);
  const tasks = [...received.values()];
  const drained = await drain(lib, gw.url, acct.key, tasks, 60_000);
  lib.log(`drained: ${JSON.stringify(drained)}`);
  report.tasksCreated += tasks.length;
  report.tasksEnded += drained.ended;
  report.tasksLost += drained.missing + drained.open;
  if (drained.open || drained.missing)
    ctx.detail('kill tasks lost', { missing: drained.missing, open: drained.open, ids: drained.openIds });
  // Holds of creations cut before the upstream answered end at their deadline or in the sweep.
  const final = await ctx.settled(admin, [acct.id], new Set(tasks.map((t) => t.id)), 50_000);
  ctx.account(final, 'kill');
  ctx.detail('kill', {
    kills: survived,
    requests: stats.requests,
    cut: stats.cut,
    retries: stats.retries,
    still409After30s: stats.still409,
    unanswered: stats.unanswered,
    answers: stats.answers,
  });
  await gw.stop();
  await killMidReconcile(ctx);
}

/**
 * The instance reconciling a create that was cut mid-call is killed in its turn, its lookup of the task still
 * waiting on the upstream: the create's keyed retries answer 409 only until that instance's lease of the task runs
 * out, then get the task (kl looks it up by the gateway's reference, so it is adopted).
 */
async function killMidReconcile(ctx) {
  const { lib, report, sim } = ctx;
  // Creates are given up after 1 s (their outcome unknown); a lookup waits for 30 s.
  const { gw, admin, acct } = await ctx.gatewayWithAccount('kill-reconcile', {
    UPSTREAM_TIMEOUT_MS: '1000',
    UPSTREAM_READ_TIMEOUT_MS: '30000',
    TASK_DEADLINE_MS: '600000',
  });
  const kind = KINDS['kl-voice'];
  const send = async () => {
    const res = await lib.request('POST', `${gw.url}${kind.path}`, {
      headers: { authorization: `Bearer ${acct.key}`, 'idempotency-key': 'kill-reconcile' },
      body: kind.body('kr'),
      timeoutMs: 10_000,
    });
    ctx.observe('kill-reconcile create', res, { upstreamFaults: true, allowTimeout: true, path: kind.path });
    return res;
  };

  // The upstream takes every call and answers none: the create is answered 503, and the lookup of it, leased at
  // once, waits.
  const seen = sim.requests.length;
  sim.setChaos({ rate: 1, kinds: ['timeout'] });
  const first = await send();
  const lookedUp = await lib.waitFor(
    async () => sim.requests.slice(seen).some((r) => r.family === 'kl' && r.method === 'GET') || null,
    10_000,
    50,
  );
  await gw.kill();
  const killedAt = Date.now();
  await gw.start();
  sim.setChaos(null);

  const answers = {};
  let last;
  for (;;) {
    last = await send();
    answers[last.status] = (answers[last.status] || 0) + 1;
    const retryable = last.status === 0 || last.status === 503 || last.status === 409;
    if (!retryable || Date.now() - killedAt > 3 * RECONCILE_RETRY_WITHIN_MS) break;
    await lib.sleep(500);
  }
  const answeredMs = Date.now() - killedAt;
  report.killsSurvived++;
  // Counted unless the retry got the task in time.
  if (!lookedUp || last.status !== 200 || answeredMs > RECONCILE_RETRY_WITHIN_MS) report.reconcileRetries409++;
  const id = last.status === 200 ? kind.idOf(last.json) : undefined;
  if (id) {
    const drained = await drain(lib, gw.url, acct.key, [{ id, kind: 'kl-voice' }], 30_000);
    report.tasksCreated++;
    report.tasksEnded += drained.ended;
    report.tasksLost += drained.missing + drained.open;
  }
  ctx.account(await ctx.settled(admin, [acct.id], new Set(id ? [id] : []), 30_000), 'kill-reconcile');
  ctx.detail('kill mid-reconcile', { first: first.status, lookedUp: Boolean(lookedUp), answeredMs, answers });
  await gw.stop();
}

module.exports = { name: 'kill', run };
