'use strict';
/**
 * Upstream faults under load: the simulator answers a share of requests with 5xx, timeouts, resets
 * mid-body, garbled JSON, string numbers, unknown statuses, slow answers and status regressions
 * while clients create and query tasks. Afterwards (faults off) every accepted task must end, each
 * settled once, the ledger verify, no hold or in-flight slot left.
 */
const { KINDS, KIND_NAMES, drain } = require('./tasks');

async function run(ctx) {
  const { lib, sim, report } = ctx;
  const total = ctx.short ? 60 : 400;
  const { gw, admin, acct } = await ctx.gatewayWithAccount('chaos', {
    UPSTREAM_TIMEOUT_MS: '3000',
    UPSTREAM_READ_TIMEOUT_MS: '1500',
    UPSTREAM_CONNECT_TIMEOUT_MS: '1000',
    TASK_DEADLINE_MS: '15000',
  });
  const auth = { authorization: `Bearer ${acct.key}` };
  sim.setTaskMs(1500);
  sim.setChaos({ rate: ctx.short ? 0.3 : 0.25, seed: ctx.seed, slowMs: 1200 });
  const accepted = [];
  const statuses = {};
  const random = lib.rng(ctx.seed + 1);
  await lib.pool(
    Array.from({ length: total }, (_, i) => i),
    6,
    async (i) => {
      const kind = KIND_NAMES[i % KIND_NAMES.length];
      const res = await lib.request('POST', `${gw.url}${KINDS[kind].path}`, {
        headers: { ...auth, 'idempotency-key': `chaos-${i}` },
        body: KINDS[kind].body(`c${i}`),
        timeoutMs: 20_000,
      });
      ctx.observe('chaos create', res, { upstreamFaults: true, path: KINDS[kind].path });
      statuses[res.status || res.error] = (statuses[res.status || res.error] || 0) + 1;
      const id = res.status >= 200 && res.status < 300 ? KINDS[kind].idOf(res.json) : undefined;
      if (id) accepted.push({ id, kind });
      // A query of some earlier task between creates: answered from the record, whatever the upstream does.
      if (accepted.length) {
        const task = accepted[Math.floor(random() * accepted.length)];
        const q = await lib.request('GET', `${gw.url}${KINDS[task.kind].query(task.id)}`, {
          headers: auth,
          timeoutMs: 10_000,
        });
        ctx.observe('chaos query', q, { upstreamFaults: true, path: KINDS[task.kind].query(task.id) });
        if (q.status === 404) report.tasksLost++;
      }
    },
  );
  // Faults stay on while the sync worker polls the tasks in flight, then stop.
  await lib.sleep(ctx.short ? 3000 : 8000);
  sim.setChaos(null);
  report.faultsInjected += sim.chaosStats().injected;
  ctx.detail('chaos', { creates: total, answers: statuses, faults: sim.chaosStats().byKind });

  const drained = await drain(lib, gw.url, acct.key, accepted, 60_000);
  report.tasksCreated += accepted.length;
  report.tasksEnded += drained.ended;
  report.tasksLost += drained.missing + drained.open;
  if (drained.open) ctx.detail('chaos tasks never ended', drained.openIds);
  const clientIds = new Set(accepted.map((t) => t.id));
  // Creations the upstream never confirmed hold money until their deadline; the sweep recounts slots.
  const final = await ctx.settled(admin, [acct.id], clientIds, 45_000);
  ctx.account(final, 'chaos');
  await gw.stop();
}

module.exports = { name: 'chaos', run };
