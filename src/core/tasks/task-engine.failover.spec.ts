import { draft, newFakes, principal, snapshot } from '../../../test/fakes';
import { GatewayError } from '../../platform/errors';
import { ChannelRegistry } from '../../upstream/channel-routing/channel-registry';
import { UpstreamBreakers } from '../../upstream/http/upstream-breakers';
import { resolveHttpOptions } from '../../upstream/http/upstream-http-options';
import {
  UpstreamChannel,
  UpstreamCredentialsRefusedError,
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamSubmitResult,
  UpstreamUnavailableError,
} from '../../upstream/upstream.types';

const channel = (id: string, extra: Partial<UpstreamChannel> = {}): UpstreamChannel => ({
  id,
  family: 'ax',
  baseUrl: `http://${id}.test`,
  apiKey: 'k',
  ...extra,
});

/** The engine over the real registry (as the app wires it), with a client scripted per channel. */
function setup(channels: UpstreamChannel[], answers: Record<string, () => Promise<UpstreamSubmitResult>>, env = {}) {
  const f = newFakes(env);
  const registry = new ChannelRegistry(channels, new UpstreamBreakers(resolveHttpOptions({})));
  f.upstreams.channels = channels;
  // What the app's directory does over the registry.
  Object.assign(f.upstreams, {
    pick: (family: string, model?: string, exclude?: readonly string[]) =>
      registry.pick(family, model, exclude) ?? null,
    taskOpened: (id: string) => registry.load.opened(id),
    taskClosed: (id: string) => registry.load.closed(id),
    createEnded: (c: UpstreamChannel, ms: number, error?: unknown) => registry.createEnded(c, ms, error),
  });
  const sentTo: string[] = [];
  f.client.submit = (c, operation, body, options) => {
    sentTo.push(c.id);
    f.client.submits.push({ operation, body, options });
    const answer = answers[c.id];
    return answer
      ? answer()
      : Promise.resolve({ upstreamTaskId: `up-${c.id}`, snapshot: snapshot({ state: 'queued' }) });
  };
  return { f, registry, sentTo };
}

const unavailable = () => Promise.reject(new UpstreamUnavailableError('answered HTTP 503', 503));
const throttled = () => Promise.reject(new UpstreamRejectedError(429, 'Throttling', 'slow down'));
const outOfBalance = () => Promise.reject(new UpstreamRejectedError(400, 'Arrearage', 'Access denied'));
const keyRefused = () =>
  Promise.reject(
    new UpstreamCredentialsRefusedError(
      'Upstream channel ax-a refused its credentials (HTTP 401, InvalidApiKey): Invalid API-key provided.',
      401,
      'InvalidApiKey',
    ),
  );

describe('TaskEngine.create: failover to the next channel', () => {
  it.each([
    ['answered 503 / refused a connection', unavailable],
    ['throttled with a 429', throttled],
    ['out of balance', outOfBalance],
    ["refuses the gateway's own key (401)", keyRefused],
  ])('a channel that %s: the task goes to the next channel, held and charged once', async (_name, refusal) => {
    const { f, registry, sentTo } = setup([channel('ax-a', { priority: 1 }), channel('ax-b')], { 'ax-a': refusal });
    const task = await f.engine.create(principal(), draft());
    expect(sentTo).toEqual(['ax-a', 'ax-b']);
    expect(task).toMatchObject({ phase: 'active', channelId: 'ax-b', upstreamTaskId: 'up-ax-b' });
    expect(f.tasks.row(task.id).channelId).toBe('ax-b');
    expect(f.tasks.rows.size).toBe(1);
    expect(f.account().held).toBe(task.estimatedCharge);
    expect(registry.load.inFlight('ax-a')).toBe(0);
    expect(registry.load.inFlight('ax-b')).toBe(1);
  });

  it('an out-of-balance channel cools down: the next task goes straight to another channel', async () => {
    const { f, registry, sentTo } = setup([channel('ax-a', { priority: 1 }), channel('ax-b')], {
      'ax-a': outOfBalance,
    });
    await f.engine.create(principal(), draft());
    await f.engine.create(principal(), draft());
    expect(sentTo).toEqual(['ax-a', 'ax-b', 'ax-b']);
    expect(registry.stateOf(registry.byId('ax-a')!).coolingDownUntil).not.toBeNull();
    expect(registry.stateOf(registry.byId('ax-a')!).breaker).toBe('closed');
  });

  it("a channel refusing the gateway's own key, with no other channel: 503, never the client's 400; nothing held", async () => {
    const { f, registry, sentTo } = setup([channel('ax-a')], { 'ax-a': keyRefused });
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect((error as GatewayError).message).not.toMatch(/InvalidApiKey|API-key/);
    expect(sentTo).toEqual(['ax-a']);
    expect([...f.tasks.rows.values()].map((t) => t.phase)).toEqual(['rejected']);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(registry.stateOf(registry.byId('ax-a')!).unhealthy?.reason).toContain('InvalidApiKey');
  });

  it('an unknown outcome is never sent elsewhere: the task stays on its channel for reconciliation', async () => {
    const { f, sentTo } = setup([channel('ax-a', { priority: 1 }), channel('ax-b')], {
      'ax-a': () => Promise.reject(new UpstreamOutcomeUnknownError('sent, no answer')),
    });
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(503);
    expect(sentTo).toEqual(['ax-a']);
    const [row] = [...f.tasks.rows.values()];
    expect(row).toMatchObject({ channelId: 'ax-a', phase: 'submitting', billingState: 'held' });
  });

  it('a refusal of the request itself (a 400) is the answer: no other channel', async () => {
    const { f, sentTo } = setup([channel('ax-a', { priority: 1 }), channel('ax-b')], {
      'ax-a': () => Promise.reject(new UpstreamRejectedError(400, 'InvalidParameter', 'bad prompt')),
    });
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(400);
    expect(sentTo).toEqual(['ax-a']);
  });

  it('tries at most UPSTREAM_FAILOVER_MAX channels, then one error; the hold is released once', async () => {
    const chans = ['ax-a', 'ax-b', 'ax-c'].map((id) => channel(id));
    const { f, registry, sentTo } = setup(
      chans,
      { 'ax-a': unavailable, 'ax-b': unavailable, 'ax-c': unavailable },
      { UPSTREAM_FAILOVER_MAX: '2' },
    );
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(503);
    expect(sentTo).toHaveLength(2);
    expect(new Set(sentTo).size).toBe(2);
    expect([...f.tasks.rows.values()].map((t) => t.phase)).toEqual(['rejected']);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
    expect(chans.map((c) => registry.load.inFlight(c.id))).toEqual([0, 0, 0]);
  });

  it('starts no further channel once UPSTREAM_TIMEOUT_MS has passed since the first call', async () => {
    const { f, sentTo } = setup([channel('ax-a', { priority: 1 }), channel('ax-b')], {
      'ax-a': () => {
        f.clock.advance(1000);
        return unavailable();
      },
    });
    f.config.UPSTREAM_TIMEOUT_MS = 1000;
    const error = await f.engine.create(principal(), draft()).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(503);
    expect(sentTo).toEqual(['ax-a']);
  });

  it('a task bound to a channel (a session) never leaves it', async () => {
    const { f, sentTo } = setup([channel('ax-a'), channel('ax-b')], { 'ax-b': unavailable });
    const error = await f.engine.create(principal(), draft({ channelId: 'ax-b' })).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(503);
    expect(sentTo).toEqual(['ax-b']);
  });

  it('before the next call the record names the new channel and is due only once that call must have ended', async () => {
    const { f } = setup([channel('ax-a', { priority: 1 }), channel('ax-b')], {
      'ax-a': () => {
        f.clock.advance(2000);
        return unavailable();
      },
      'ax-b': async () => {
        const row = [...f.tasks.rows.values()][0];
        expect(row.channelId).toBe('ax-b');
        expect(row.syncDueAt).toBe(f.clock.nowMs() + f.config.UPSTREAM_TIMEOUT_MS + 5000);
        return { upstreamTaskId: 'up-b', snapshot: snapshot({ state: 'queued' }) };
      },
    });
    await f.engine.create(principal(), draft());
  });
});
