import { Principal } from '../../../core/accounts/principal';
import { LedgerService } from '../../../core/billing/ledger.service';
import { PricingService } from '../../../core/billing/pricing.service';
import { ModelDescriptor } from '../../../core/models/model-catalogue';
import { TasksRepository } from '../../../core/tasks/tasks.repository';
import type { RequestContext } from '../../../platform/http/request-context';
import { Clock } from '../../../platform/time/clock';
import { ChannelRegistry } from '../../../upstream/channel-routing/channel-registry';
import { KlClient } from '../../../upstream/kl/kl.client';
import { UpstreamRejectedError } from '../../../upstream/upstream.types';
import { KlMarks, KlSessionEntity } from './kl-session.entity';
import { KlSessionsRepository } from './kl-sessions.repository';
import { KlSessionsService } from './kl-sessions.service';

const NOW = 1_000_000;

function session(marks: KlMarks = {}): KlSessionEntity {
  return {
    id: 'sess_1',
    accountId: 'acct_1',
    channelId: 'ch_1',
    upstreamSessionId: 'up_1',
    model: 'kl-v1',
    source: 'https://example.com/v.mp4',
    fps: 30,
    originalDuration: 5,
    width: 1280,
    height: 720,
    totalFrame: 150,
    normalizedVideo: '',
    marks,
    version: 0,
    createdAt: NOW,
    updatedAt: NOW,
    expiresAt: NOW + 60_000,
  };
}

/**
 * The service over fakes: one stored session whose marks follow every recorded write, a lease that
 * one caller holds at a time, and a ledger that charges only when the work succeeds.
 */
function harness(stored: KlSessionEntity, upstream: () => Promise<Record<string, unknown>>) {
  const writes: KlMarks[] = [];
  const charged: number[] = [];
  let holder: string | null = null;
  const sessions = {
    findForAccount: jest.fn(async () => stored),
    acquireLease: jest.fn(async (_id: string, token: string) => {
      if (holder) return false;
      holder = token;
      return true;
    }),
    releaseLease: jest.fn(async (_id: string, token: string) => {
      if (holder === token) holder = null;
    }),
    recordMarks: jest.fn(async (_id: string, marks: KlMarks) => {
      writes.push(marks);
      stored = { ...stored, marks, version: stored.version + 1 };
    }),
  };
  const call = jest.fn(upstream);
  const chargeCall = jest.fn(
    async (_account: string, _hold: string, charge: { amount: number }, work: () => Promise<unknown>) => {
      const result = await work();
      charged.push(charge.amount);
      return result;
    },
  );
  const service = new KlSessionsService(
    { call } as unknown as KlClient,
    { byId: () => ({ id: 'ch_1' }) } as unknown as ChannelRegistry,
    sessions as unknown as KlSessionsRepository,
    {} as TasksRepository,
    { estimate: () => ({ amount: 10, priceVersion: 1 }) } as unknown as PricingService,
    { chargeCall } as unknown as LedgerService,
    { nowMs: () => NOW } as Clock,
    { createTimeoutMs: 1_000 },
  );
  return { service, call, chargeCall, writes, charged, lease: () => holder };
}

describe('KlSessionsService session operations', () => {
  const ctx = { requestId: 'req-1', startedAt: 0n } as RequestContext;
  const principal = { account: { id: 'acct_1' }, apiKey: { models: null } } as unknown as Principal;
  const model = { name: 'kl-v1' } as ModelDescriptor;
  const selection = { session_id: 'sess_1', frame_index: 3, points: [{ x: 0.5, y: 0.5 }] };

  it('add: nothing recorded or charged when the upstream refuses, the refusal passed on, the lease given back', async () => {
    const { service, call, writes, charged, lease } = harness(session(), async () => {
      throw new UpstreamRejectedError(400, 1201, 'bad point');
    });
    await expect(service.add(ctx, principal, model, selection)).rejects.toMatchObject({
      status: 400,
      options: { native: { code: 1201, message: 'bad point' } },
    });
    expect(call).toHaveBeenCalledWith(
      { id: 'ch_1' },
      'POST',
      expect.any(String),
      { session_id: 'up_1', frame_index: 3, points: [{ x: 0.5, y: 0.5 }] },
      expect.anything(),
    );
    expect(writes).toEqual([]);
    expect(charged).toEqual([]);
    expect(lease()).toBeNull();
  });

  it('add: the marks are recorded once the upstream took them, and the call is charged', async () => {
    const { service, writes, charged } = harness(session(), async () => ({ status: 0 }));
    await service.add(ctx, principal, model, selection);
    expect(writes).toEqual([{ '3': [{ x: 0.5, y: 0.5 }] }]);
    expect(charged).toEqual([10]);
  });

  it('add: the answer is the documented data with the public session ID and the credit figure as text', async () => {
    const { service } = harness(session(), async () => ({
      session_id: 'up_1',
      final_unit_deduction: 2,
      res: {},
      task_id: 'upstream-internal',
    }));
    await expect(service.add(ctx, principal, model, selection)).resolves.toEqual({
      code: 0,
      message: 'SUCCEED',
      request_id: 'req-1',
      data: { status: 0, session_id: 'sess_1', final_unit_deduction: '2', res: {} },
    });
  });

  it('add and delete: a non-zero data.status is a 400 naming points, not recorded and not charged', async () => {
    for (const [operation, stored] of [
      ['add', session()],
      ['delete', session({ '3': [{ x: 0.5, y: 0.5 }] })],
    ] as const) {
      const { service, writes, charged, lease } = harness(stored, async () => ({ status: 3, res: {} }));
      await expect(service[operation](ctx, principal, model, selection)).rejects.toMatchObject({
        status: 400,
        param: 'points',
      });
      expect(writes).toEqual([]);
      expect(charged).toEqual([]);
      expect(lease()).toBeNull();
    }
  });

  it('two calls on one session reach the upstream one after the other, the second seeing the first’s marks', async () => {
    let inFlight = 0;
    let overlapped = false;
    const { service, writes } = harness(session(), async () => {
      inFlight++;
      overlapped ||= inFlight > 1;
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight--;
      return { status: 0 };
    });
    await Promise.all([
      service.add(ctx, principal, model, selection),
      service.add(ctx, principal, model, { ...selection, frame_index: 4 }),
    ]);
    expect(overlapped).toBe(false);
    expect(writes.at(-1)).toEqual({ '3': [{ x: 0.5, y: 0.5 }], '4': [{ x: 0.5, y: 0.5 }] });
  });

  it('preview without marks: 400 naming session_id, before any upstream call or charge', async () => {
    const { service, call, chargeCall, lease } = harness(session(), async () => ({}));
    await expect(service.preview(ctx, principal, model, { session_id: 'sess_1' })).rejects.toMatchObject({
      status: 400,
      param: 'session_id',
    });
    expect(call).not.toHaveBeenCalled();
    expect(chargeCall).not.toHaveBeenCalled();
    expect(lease()).toBeNull();
  });

  it('clear: the marks go only once the upstream cleared its own', async () => {
    const marked = session({ '1': [{ x: 0.1, y: 0.1 }] });
    const failing = harness(marked, async () => {
      throw new UpstreamRejectedError(400, 1201, 'no');
    });
    await expect(failing.service.clear(ctx, principal, model, { session_id: 'sess_1' })).rejects.toMatchObject({
      status: 400,
    });
    expect(failing.writes).toEqual([]);
    const ok = harness(marked, async () => ({ status: 0 }));
    await ok.service.clear(ctx, principal, model, { session_id: 'sess_1' });
    expect(ok.writes).toEqual([{}]);
  });
});
