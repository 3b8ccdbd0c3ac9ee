import { Logger } from '@nestjs/common';
import { createServer, IncomingMessage, Server } from 'http';
import { AddressInfo } from 'net';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * `GET /admin/v1/tasks/{task_id}/callbacks`: why a client did or did not get its callback (every
 * delivery of the task: attempts, last error, next try), and one warn line per failed attempt.
 */
const CREATE = '/vd/ent/v2/reference2video';
const body = (extra: Record<string, unknown> = {}) => ({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: '@cat plays',
  ...extra,
});

/** A callback receiver: `/flaky` fails its first request with 500, `/down` always answers 503. */
async function startReceiver(): Promise<{
  server: Server;
  base: string;
  received: Array<{ path: string; headers: IncomingMessage['headers'] }>;
}> {
  const received: Array<{ path: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers });
      const seen = received.filter((r) => r.path === req.url).length;
      res.statusCode = req.url === '/down' ? 503 : req.url === '/flaky' && seen === 1 ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin: a task’s client callback deliveries', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    receiver = await startReceiver();
    gw = await startSimulatedGateway({ env: { CALLBACK_MAX_ATTEMPTS: '3' } });
    acct = await gw.admin.account({ models: ['vdq3'] });
  });
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn');
  });
  afterEach(() => warn.mockRestore());
  afterAll(async () => {
    await gw.close();
    await new Promise<void>((r) => receiver.server.close(() => r()));
  });

  const callbacks = (taskId: string) => gw.admin.get(`/admin/v1/tasks/${taskId}/callbacks`);
  const untilDelivery = (taskId: string, status: string) =>
    eventually(async () => {
      const res = await callbacks(taskId).expect(200);
      return res.body.deliveries[0]?.status === status ? res.body : null;
    }, 8000);
  const warnings = (taskId: string) =>
    warn.mock.calls
      .filter(([fields]) => (fields as { taskId?: string } | undefined)?.taskId === taskId)
      .map(([fields, message]) => ({ fields, message }));

  it('shows a delivery that succeeded on its second attempt, and logs the failed first one at warn', async () => {
    const url = `${receiver.base}/flaky`;
    const task = (
      await gw
        .http()
        .post(CREATE)
        .set(...bearer(acct))
        .send(body({ callback_url: url }))
        .expect(200)
    ).body.task_id as string;
    const view = await untilDelivery(task, 'delivered');
    expect(view).toEqual({
      task_id: task,
      account_id: acct.id,
      callback_url: url,
      // Tracing is off in these tests: no trace to name.
      trace_id: null,
      deliveries: [
        {
          id: receiver.received.find((r) => r.path === '/flaky')?.headers['webhook-id'],
          url,
          status: 'delivered',
          attempts: 2,
          max_attempts: 3,
          last_error: null,
          next_attempt_at: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      ],
    });
    expect(warnings(task)).toEqual([
      {
        fields: expect.objectContaining({
          taskId: task,
          deliveryId: view.deliveries[0].id,
          attempt: 1,
          maxAttempts: 3,
          reason: 'HTTP 500',
          nextAttemptAt: expect.stringMatching(ISO),
        }),
        message: 'client callback attempt failed; will retry',
      },
    ]);
  });

  it('shows a delivery given up after the last attempt, with the last error; every attempt logged at warn', async () => {
    const url = `${receiver.base}/down`;
    const task = (
      await gw
        .http()
        .post(CREATE)
        .set(...bearer(acct))
        .send(body({ callback_url: url }))
        .expect(200)
    ).body.task_id as string;
    const view = await untilDelivery(task, 'failed');
    expect(view.deliveries).toEqual([
      expect.objectContaining({
        url,
        status: 'failed',
        attempts: 3,
        max_attempts: 3,
        last_error: 'HTTP 503',
        next_attempt_at: null,
      }),
    ]);
    expect(warnings(task).map((w) => [w.fields.attempt, w.fields.reason, w.message])).toEqual([
      [1, 'HTTP 503', 'client callback attempt failed; will retry'],
      [2, 'HTTP 503', 'client callback attempt failed; will retry'],
      [3, 'HTTP 503', 'client callback attempt failed; abandoned after the last attempt'],
    ]);
  });

  it('a task without callback_url has no deliveries; an unknown task is 404; the admin token is required', async () => {
    const task = (
      await gw
        .http()
        .post(CREATE)
        .set(...bearer(acct))
        .send(body())
        .expect(200)
    ).body.task_id as string;
    expect((await callbacks(task).expect(200)).body).toEqual({
      task_id: task,
      account_id: acct.id,
      callback_url: null,
      trace_id: null,
      deliveries: [],
    });
    expect((await callbacks('task_does_not_exist').expect(404)).body.error).toMatchObject({ code: 'not_found' });
    expect((await gw.http().get(`/admin/v1/tasks/${task}/callbacks`).expect(401)).body.error).toMatchObject({
      code: 'invalid_api_key',
    });
    expect(
      (
        await gw
          .http()
          .get(`/admin/v1/tasks/${task}/callbacks`)
          .set(...bearer(acct))
          .expect(401)
      ).body.error,
    ).toMatchObject({ code: 'invalid_api_key' });
  });
});

describe('admin: a callback waiting for its next try', () => {
  it('shows the attempts so far, the last error and when it is tried next', async () => {
    const receiver = await startReceiver();
    // Retries a minute apart: the delivery stays pending after its first failure.
    const gw = await startSimulatedGateway({ env: { CALLBACK_RETRY_BASE_MS: '60000' } });
    try {
      const acct = await gw.admin.account({ models: ['vdq3'] });
      const url = `${receiver.base}/down`;
      const task = (
        await gw
          .http()
          .post(CREATE)
          .set(...bearer(acct))
          .send(body({ callback_url: url }))
          .expect(200)
      ).body.task_id as string;
      const pending = await eventually(async () => {
        const res = await gw.admin.get(`/admin/v1/tasks/${task}/callbacks`).expect(200);
        return res.body.deliveries[0]?.last_error ? res.body.deliveries[0] : null;
      }, 8000);
      expect(pending).toMatchObject({
        status: 'pending',
        attempts: 1,
        max_attempts: 10,
        last_error: 'HTTP 503',
        next_attempt_at: expect.stringMatching(ISO),
      });
      // Doubling back-off from 60 s, with ±20% jitter.
      const wait = Date.parse(pending.next_attempt_at) - Date.parse(pending.updated_at);
      expect(wait).toBeGreaterThanOrEqual(48_000);
      expect(wait).toBeLessThanOrEqual(72_000);
      expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(1);
    } finally {
      await gw.close();
      await new Promise<void>((r) => receiver.server.close(() => r()));
    }
  });
});
