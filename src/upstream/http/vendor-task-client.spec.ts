import { FakeUpstream, sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import * as failures from '../upstream.types';
import type { UpstreamChannel } from '../upstream.types';
import type { CallKind, VendorRefusals } from './answer-errors';
import {
  CancellableTaskClient,
  CancellableTaskEndpoints,
  VendorTaskClient,
  VendorTaskProtocol,
  plainAnswer,
} from './vendor-task-client';

const REFUSALS: VendorRefusals = {
  read: (body) => body as { code?: string; message?: string },
  outOfBalanceCodes: ['Broke'],
};

/** A vendor of the tests' own: every part of the protocol shows in what goes out and what comes back. */
function probeProtocol(seen: CallKind[] = []): VendorTaskProtocol<unknown, CancellableTaskEndpoints> {
  return {
    family: 'px',
    endpoints: (operation) => {
      if (operation !== 'make') throw new Error(`px upstream has no task operation "${operation}".`);
      return {
        createPath: '/px/make',
        queryPath: (id) => `/px/tasks/${encodeURIComponent(id)}`,
        cancelPath: (id) => `/px/tasks/${encodeURIComponent(id)}/stop`,
      };
    },
    headers: (channel, kind) => ({ Authorization: `Key ${channel.apiKey}`, 'X-Kind': kind }),
    createBody: (body, _channel, options) => ({ ...body, hook: options.callbackUrl }),
    answer: (response, kind, channel) => {
      seen.push(kind);
      return plainAnswer(REFUSALS)(response, kind, channel);
    },
    readCreated: (payload, raw, _channel, options) => ({
      upstreamTaskId: String((payload as { id: string }).id),
      snapshot: { state: 'queued', nativeStatus: options.clientReference ?? '', videos: [], voices: [], raw },
    }),
    readTask: (payload, raw, channel) => ({
      state: 'running',
      nativeStatus: `${(payload as { state: string }).state}@${channel.id}`,
      videos: [],
      voices: [],
      raw,
    }),
  };
}

describe('VendorTaskClient', () => {
  let upstream: FakeUpstream;
  let stack: ReturnType<typeof createTestUpstream>;
  let channel: UpstreamChannel;
  let seen: CallKind[];
  let client: CancellableTaskClient;

  beforeEach(async () => {
    upstream = await startFakeUpstream((_req, res) => sendJson(res, 200, { id: 'px-1', state: 'busy' }));
    stack = createTestUpstream();
    channel = { id: 'px-test', family: 'px', baseUrl: upstream.baseUrl, apiKey: 'px-key' };
    seen = [];
    client = new CancellableTaskClient(stack.transport, probeProtocol(seen));
  });
  afterEach(async () => {
    stack.close();
    await upstream.close();
  });

  it("creates with a POST of the vendor's body and headers to the operation's path, and reads the answer", async () => {
    const timing = { upstreamMs: 0 };
    const result = await client.submit(
      channel,
      'make',
      { prompt: 'p' },
      { callbackUrl: 'https://gw.example/cb', clientReference: 'ref-1', timing },
    );
    expect(upstream.requests[0]).toMatchObject({
      method: 'POST',
      url: '/px/make',
      body: { prompt: 'p', hook: 'https://gw.example/cb' },
    });
    expect(upstream.requests[0].headers).toMatchObject({ authorization: 'Key px-key', 'x-kind': 'create' });
    expect(result).toEqual({
      upstreamTaskId: 'px-1',
      snapshot: { state: 'queued', nativeStatus: 'ref-1', videos: [], voices: [], raw: { id: 'px-1', state: 'busy' } },
    });
    expect(seen).toEqual(['create']);
    expect(timing.upstreamMs).toBeGreaterThan(0);
    expect(client.family).toBe('px');
  });

  it("queries with a GET of the task's path and reads it with the channel", async () => {
    const snapshot = await client.fetch(channel, 'make', 'a/1');
    expect(upstream.requests[0]).toMatchObject({ method: 'GET', url: '/px/tasks/a%2F1', body: undefined });
    expect(upstream.requests[0].headers['x-kind']).toBe('fetch');
    expect(snapshot).toMatchObject({ nativeStatus: 'busy@px-test', raw: { id: 'px-1' } });
  });

  it('cancels with a POST to the cancel path, without a body unless the vendor gives one', async () => {
    await client.cancel(channel, 'make', 'px-1');
    expect(upstream.requests[0]).toMatchObject({ method: 'POST', url: '/px/tasks/px-1/stop', body: undefined });
    const withBody = new CancellableTaskClient(stack.transport, { ...probeProtocol(), cancelBody: (id) => ({ id }) });
    await withBody.cancel(channel, 'make', 'px-1');
    expect(upstream.requests[1]).toMatchObject({ method: 'POST', url: '/px/tasks/px-1/stop', body: { id: 'px-1' } });
    expect(seen).toEqual(['cancel']);
  });

  it('has no cancel when the vendor offers none', () => {
    const plain = new VendorTaskClient(stack.transport, probeProtocol());
    expect('cancel' in plain).toBe(false);
  });

  it('refuses an operation the vendor does not have, without calling', async () => {
    await expect(client.submit(channel, 'other', {})).rejects.toThrow(/no task operation "other"/);
    await expect(client.fetch(channel, 'other', 'x')).rejects.toThrow(/no task operation "other"/);
    await expect(client.cancel(channel, 'other', 'x')).rejects.toThrow(/no task operation "other"/);
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ['a 400 on a create', 'submit', 400, { code: 'Bad', message: 'no' }, failures.UpstreamRejectedError],
    ['a 401 on a query', 'fetch', 401, { code: 'Who' }, failures.UpstreamCredentialsRefusedError],
    ['a 403 out-of-balance code on a create', 'submit', 403, { code: 'Broke' }, failures.UpstreamRejectedError],
    ['a 404 on a query', 'fetch', 404, {}, failures.UpstreamTaskNotFoundError],
    ['a 404 on a cancel', 'cancel', 404, {}, failures.UpstreamTaskNotFoundError],
    ['a 404 on a create', 'submit', 404, {}, failures.UpstreamRejectedError],
    ['a 500 on a create', 'submit', 500, {}, failures.UpstreamUnavailableError],
    ['a 302 on a query', 'fetch', 302, {}, failures.UpstreamUnavailableError],
  ] as const)('turns %s into the upstream failure type', async (_case, call, status, body, expected) => {
    upstream.handle((_req, res) => sendJson(res, status, body));
    const calls = {
      submit: () => client.submit(channel, 'make', {}),
      fetch: () => client.fetch(channel, 'make', 'px-1'),
      cancel: () => client.cancel(channel, 'make', 'px-1'),
    };
    await expect(calls[call]()).rejects.toBeInstanceOf(expected);
  });

  it('turns a create that hangs into an unknown outcome', async () => {
    stack.close();
    stack = createTestUpstream({ createTimeoutMs: 150 });
    client = new CancellableTaskClient(stack.transport, probeProtocol());
    upstream.handle(() => undefined);
    await expect(client.submit(channel, 'make', {})).rejects.toBeInstanceOf(failures.UpstreamOutcomeUnknownError);
  });
});
