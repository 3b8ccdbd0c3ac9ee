import { TasksRepository } from '../../src/core/tasks/tasks.repository';
import { TestAccount } from '../support/gateway-harness';
import { captureGatewayLogs } from '../support/log-capture';
import { SAMPLE_MP4, getResult, resultPath } from '../support/results';
import {
  SimulatedGateway,
  bearer,
  createAxTask,
  eventually,
  startSimulatedGateway,
} from '../support/simulated-gateway';

/**
 * What the gateway's own log says about requests whose URL is a credential: a kept result's
 * signed URL and a task's upstream callback URL. The access line names the route, never the token.
 */
describe('log lines of credential URLs', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;
  let logs: ReturnType<typeof captureGatewayLogs>;

  beforeAll(async () => {
    logs = captureGatewayLogs();
    gw = await startSimulatedGateway({
      // PUBLIC_BASE_URL gives each task an upstream callback token; nothing listens there.
      env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json', PUBLIC_BASE_URL: 'http://127.0.0.1:9' },
    });
    acct = await gw.admin.account({ models: ['wx2.7-r2v'] });
  });
  afterAll(async () => {
    await gw?.close();
    logs.restore();
  });

  const accessLine = (url: string) =>
    logs.lines().find((l) => (l.req as { url?: string } | undefined)?.url === url && l.res !== undefined);

  it('shows /results/[redacted] and /callbacks/upstream/[redacted] in access lines, and the tokens nowhere', async () => {
    const taskId = await createAxTask(gw, acct);
    const videoUrl = await eventually(async () => {
      const q = await gw
        .http()
        .get(`/ax/api/v1/tasks/${taskId}`)
        .set(...bearer(acct));
      return q.body.output?.task_status === 'SUCCEEDED' ? (q.body.output.video_url as string) : null;
    });
    const resultToken = resultPath(videoUrl).split('/').pop() as string;
    const served = await getResult(gw.http, videoUrl).expect(200);
    expect(Buffer.compare(served.body as Buffer, SAMPLE_MP4)).toBe(0);
    // The same token on a path spelled another way is no route (404), and no less a credential.
    for (const path of [`//results/${resultToken}`, `/results//${resultToken}`, `/%72esults/${resultToken}`])
      expect((await gw.http().get(path)).status).toBe(404);

    const callbackToken = (await gw.app.get(TasksRepository).findById(taskId))?.callbackToken as string;
    expect(callbackToken.length).toBeGreaterThanOrEqual(16);
    await gw.http().post(`/callbacks/upstream/${callbackToken}`).send({}).expect(200);
    const unknownToken = 'not-a-task-token-0123456789';
    await gw.http().post(`/callbacks/upstream/${unknownToken}`).send({}).expect(404);

    await eventually(async () => accessLine('/callbacks/upstream/[redacted]') ?? null);
    expect(accessLine('/results/[redacted]')).toMatchObject({
      route: '/results/:token',
      res: { statusCode: 200 },
    });
    expect(
      logs.lines().filter((l) => (l.req as { url?: string } | undefined)?.url === '/callbacks/upstream/[redacted]'),
    ).toHaveLength(2);
    const everything = logs.text();
    for (const token of [resultToken, callbackToken, unknownToken]) expect(everything).not.toContain(token);
    // The same request's other fields are still there: the line is masked, not dropped.
    expect(accessLine(`/ax/api/v1/tasks/${taskId}`)).toMatchObject({ accountId: acct.id });
  });
});
