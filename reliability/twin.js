'use strict';
/**
 * Two gateway instances on one database (+ Redis when REDIS_URL is set): a rate limit and an
 * in-flight cap hold across both with exact counts, each task is settled once, each client
 * callback is delivered once per webhook-id to a local receiver (which fails some first attempts,
 * so retries happen).
 */
const http = require('node:http');
const { KINDS, drain } = require('./tasks');

function startReceiver(random) {
  const deliveries = []; // {webhookId, taskId, answered}
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = {};
      }
      const webhookId = req.headers['webhook-id'];
      const taskId = body.id || (body.data && body.data.task_id) || (body.output && body.output.task_id);
      const seen = deliveries.some((d) => d.webhookId === webhookId);
      // A fifth of first attempts fail, so the outbox retries; a delivered one is never failed.
      const fail = !seen && random() < 0.2;
      deliveries.push({ webhookId, taskId, answered: fail ? 500 : 204 });
      res.writeHead(fail ? 500 : 204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        deliveries,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

async function run(ctx) {
  const { lib, report, sim } = ctx;
  const random = lib.rng(ctx.seed + 4);
  const receiver = await startReceiver(random);
  const [one, two] = await ctx.startGateways(
    'twin',
    { CALLBACK_ALLOW_PRIVATE: 'true', CALLBACK_RETRY_BASE_MS: '200' },
    2,
  );
  const instances = [one, two];
  const admin = lib.adminClient(one.url);
  const adminTwo = lib.adminClient(two.url);
  const shared = Boolean(ctx.store.redisUrl);

  // Rate limit: 2 x RPM requests spread over both instances at once; exactly RPM get through with Redis.
  const rpm = 30;
  const limited = await admin.account('twin-rpm', { rpm });
  ctx.secret('twin rpm key', limited.key);
  const answers = await lib.pool(
    Array.from({ length: rpm * 2 }, (_, i) => i),
    10,
    async (i) => {
      const res = await lib.request('GET', `${instances[i % 2].url}/kl/v1/general/custom-voices?pageSize=1`, {
        headers: { authorization: `Bearer ${limited.key}` },
      });
      ctx.observe('twin rpm', res, { path: '/kl/v1/general/custom-voices' });
      return res.status;
    },
  );
  const passed = answers.filter((s) => s !== 429).length;
  if (shared && passed !== rpm) {
    report.limitBreaches += Math.abs(passed - rpm);
    ctx.example('limit breach', `rate limit ${rpm}/min across 2 instances: ${passed} of ${rpm * 2} passed`);
  }

  // In-flight cap: 4 x cap concurrent creates over both instances; exactly cap accepted.
  const cap = 5;
  sim.setTaskMs(4000);
  const capped = await admin.account('twin-cap', { maxConcurrent: cap });
  ctx.secret('twin cap key', capped.key);
  const capTasks = [];
  await lib.pool(
    Array.from({ length: cap * 4 }, (_, i) => i),
    cap * 4,
    async (i) => {
      const kind = i % 2 ? 'vd' : 'ax-new';
      const res = await lib.request('POST', `${instances[i % 2].url}${KINDS[kind].path}`, {
        headers: { authorization: `Bearer ${capped.key}` },
        body: KINDS[kind].body(`cap${i}`),
      });
      ctx.observe('twin cap', res, { path: KINDS[kind].path });
      const id = res.status < 300 ? KINDS[kind].idOf(res.json) : undefined;
      if (id) capTasks.push({ id, kind });
    },
  );
  if (capTasks.length !== cap) {
    report.limitBreaches += Math.abs(capTasks.length - cap);
    ctx.example('limit breach', `in-flight cap ${cap} across 2 instances: ${capTasks.length} accepted`);
  }
  sim.setTaskMs(1500);

  // Callbacks: tasks created through both instances, polled and settled by both workers.
  const n = ctx.short ? 24 : 120;
  const hooks = await admin.account('twin-callbacks');
  ctx.secret('twin callbacks key', hooks.key);
  const hookTasks = [];
  await lib.pool(
    Array.from({ length: n }, (_, i) => i),
    6,
    async (i) => {
      const kind = i % 2 ? 'vd' : 'kl-voice';
      const res = await lib.request('POST', `${instances[i % 2].url}${KINDS[kind].path}`, {
        headers: { authorization: `Bearer ${hooks.key}` },
        body: KINDS[kind].body(`cb${i}`, receiver.url),
      });
      ctx.observe('twin create', res, { path: KINDS[kind].path });
      const id = res.status < 300 ? KINDS[kind].idOf(res.json) : undefined;
      if (id) hookTasks.push({ id, kind });
    },
  );
  const all = [...capTasks.map((t) => ({ ...t, key: capped.key })), ...hookTasks];
  const drained = await drain(lib, two.url, hooks.key, all, 60_000);
  report.tasksCreated += all.length;
  report.tasksEnded += drained.ended;
  report.tasksLost += drained.missing + drained.open;

  const delivered = () => new Set(receiver.deliveries.filter((d) => d.answered === 204).map((d) => d.taskId));
  await lib.waitFor(() => hookTasks.every((t) => delivered().has(t.id)), 30_000, 500);
  await lib.sleep(1500); // a late duplicate would arrive now
  const okByWebhook = new Map();
  const webhooksByTask = new Map();
  for (const d of receiver.deliveries) {
    if (d.answered === 204) okByWebhook.set(d.webhookId, (okByWebhook.get(d.webhookId) || 0) + 1);
    if (!webhooksByTask.has(d.taskId)) webhooksByTask.set(d.taskId, new Set());
    webhooksByTask.get(d.taskId).add(d.webhookId);
  }
  let duplicates = 0;
  for (const count of okByWebhook.values()) if (count > 1) duplicates += count - 1;
  for (const ids of webhooksByTask.values()) if (ids.size > 1) duplicates += ids.size - 1;
  const got = delivered();
  const missing = hookTasks.filter((t) => !got.has(t.id)).length;
  report.callbackDuplicates += duplicates;
  report.callbacksMissing += missing;

  const ids = new Set(all.map((t) => t.id));
  const final = await ctx.settled(adminTwo, [limited.id, capped.id, hooks.id], ids, 30_000);
  ctx.account(final, 'twin');
  ctx.detail('twin', {
    rateLimit: shared
      ? `${passed} of ${rpm * 2} passed (limit ${rpm})`
      : `${passed} of ${rpm * 2} passed: per instance without REDIS_URL (not counted)`,
    inFlightCap: `${capTasks.length} accepted (cap ${cap})`,
    callbacks: { tasks: hookTasks.length, deliveries: receiver.deliveries.length, duplicates, missing },
  });
  await Promise.all(instances.map((gw) => gw.stop()));
  await receiver.close();
}

module.exports = { name: 'twin', run };
