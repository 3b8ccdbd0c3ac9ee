import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { TcpProxy } from '../support/tcp-proxy';

const VD_CREATE = '/vd/ent/v2/reference2video';
const vdBody = (tag: string) => ({
  model: 'vdq3',
  subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
  prompt: `@cat chases a butterfly ${tag}`,
});

/** What every answer during an outage must be: 503 service_unavailable, Retry-After, vd's native fields. */
function expectUnavailable(res: { status: number; headers: Record<string, string>; body: unknown }): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('2');
  expect(res.body).toMatchObject({ error: { code: 'service_unavailable', type: 'api_error', param: null } });
}

const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');

if (onPostgres) {
  describe('PostgreSQL unavailable: 503 with Retry-After within 2 s, never 500 or a hang; back by itself', () => {
    let proxy: TcpProxy;
    let gw: SimulatedGateway;
    let acct: TestAccount;

    beforeAll(async () => {
      const real = new URL(process.env.DATABASE_URL!);
      proxy = await TcpProxy.start(real.hostname, Number(real.port || 5432));
      const viaProxy = new URL(real.href);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      // The gateway reaches PostgreSQL only through the proxy, which the tests take away and give back.
      gw = await startSimulatedGateway({ taskMs: 1500, env: { DATABASE_URL: viaProxy.href } });
      acct = await gw.admin.account({ models: ['vdq3'] });
    });
    afterAll(async () => {
      proxy.up();
      await gw.close();
      await proxy.close();
    });

    const create = (tag: string) =>
      gw
        .http()
        .post(VD_CREATE)
        .set(...bearer(acct))
        .send(vdBody(tag));
    const query = (id: string) =>
      gw
        .http()
        .get(`/vd/ent/v2/tasks/${id}/creations`)
        .set(...bearer(acct));
    const timed = async <T>(call: () => PromiseLike<T>): Promise<{ res: T; ms: number }> => {
      const started = Date.now();
      const res = await call();
      return { res, ms: Date.now() - started };
    };

    it('gone (connections cut, new ones reset): creates, queries and admin reads answer 503 at once; a task made before ends after', async () => {
      const before = await create('before');
      expect(before.status).toBe(200);
      const taskId = (before.body as { task_id: string }).task_id;

      proxy.down();
      for (const call of [
        () => create('during'),
        () => query(taskId),
        () => gw.admin.get(`/admin/v1/accounts/${acct.id}`),
      ]) {
        const { res, ms } = await timed(call);
        expectUnavailable(res);
        expect(ms).toBeLessThan(2000);
      }
      const during = await create('during, vd');
      expectUnavailable(during);
      expect(during.body).toMatchObject({ code: 503, reason: 'InternalServiceFailure' });

      proxy.up();
      // Nothing to restart: the pool connects again and the sync worker goes on.
      const after = await eventually(async () => {
        const res = await create('after');
        return res.status === 200 ? res : undefined;
      }, 10_000);
      expect((after.body as { state: string }).state).toBe('created');
      const ended = await eventually(async () => {
        const res = await query(taskId);
        return (res.body as { state?: string }).state === 'success' ? res : undefined;
      }, 15_000);
      expect(ended.status).toBe(200);
    });

    it('accepting no connection (the pool waits at most DATABASE_CONNECT_TIMEOUT_MS, 1.5 s): 503, not a hang', async () => {
      proxy.hang();
      try {
        const { res, ms } = await timed(() => create('hung'));
        expectUnavailable(res);
        expect(ms).toBeLessThan(2500);
      } finally {
        proxy.up();
      }
      await eventually(async () => ((await create('back')).status === 200 ? true : undefined), 10_000);
    });
  });
} else {
  // SQLite is a file in the process: it has no connection to lose. What a PostgreSQL driver raises
  // when its server is gone is put in the create's path instead, through HTTP end to end.
  describe('the database unavailable (a refused connection in the create path): 503 with Retry-After', () => {
    let gw: SimulatedGateway;
    let acct: TestAccount;

    beforeAll(async () => {
      gw = await startSimulatedGateway();
      acct = await gw.admin.account({ models: ['vdq3'] });
    });
    afterAll(() => gw.close());

    it('answers 503 service_unavailable with vd’s native fields, not 500; the next create works', async () => {
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      const open = jest.spyOn(gw.app.get(TasksRepository), 'open').mockRejectedValueOnce(refused);
      const res = await gw
        .http()
        .post(VD_CREATE)
        .set(...bearer(acct))
        .send(vdBody('refused'));
      expect(open).toHaveBeenCalledTimes(1);
      expectUnavailable(res);
      expect(res.body).toMatchObject({
        code: 503,
        reason: 'InternalServiceFailure',
        metadata: { trace_id: expect.any(String) },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|5432/);
      open.mockRestore();
      const next = await gw
        .http()
        .post(VD_CREATE)
        .set(...bearer(acct))
        .send(vdBody('next'));
      expect(next.status).toBe(200);
    });
  });
}
