import { DataSource } from 'typeorm';
import { IdempotencyRecordEntity } from '../../src/core/tasks/entities/idempotency-record.entity';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { IdempotencyService } from '../../src/core/tasks/idempotency.service';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';

const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const VD_CREATE = '/vd/ent/v2/reference2video';

function axBody(prompt: string) {
  return {
    model: 'wx2.7-r2v',
    input: { prompt, media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
    parameters: { resolution: '720P', duration: 5 },
  };
}

/**
 * Issue 14, item 7: an `Idempotency-Key` cut by a crash. The key is tied to the task in the creation
 * transaction; a retry is answered from the task record, never by a lasting 409 or a second task.
 * A crash is reproduced by the state it leaves in the database (the process stopped between two writes).
 */
describe('Idempotency-Key survives a crash', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    acct = await gw.admin.account({ models: ['wx2.7-r2v', 'vdq3'] });
  });
  afterAll(() => gw.close());

  const ds = () => gw.app.get(DataSource);
  const post = (path: string, body: unknown, key: string) =>
    gw
      .http()
      .post(path)
      .set(...bearer(acct))
      .set('Idempotency-Key', key)
      .send(body as object);
  const tasksOf = () => ds().getRepository(TaskEntity).countBy({ accountId: acct.id });
  const forget = (key: string) =>
    ds()
      .getRepository(IdempotencyRecordEntity)
      .update(
        { accountId: acct.id, key },
        { state: 'in_flight', responseStatus: null, responseBody: null as never, responseHeaders: null },
      );

  it('crash after the upstream accepted, before the answer was stored: the retry gets the same task at once', async () => {
    const first = await post(AX_CREATE, axBody('Image 1 crash-after-accept'), 'crash-1').expect(200);
    // What a crash between the task's acceptance and the stored answer leaves behind.
    await forget('crash-1');
    const before = await tasksOf();
    const retry = await post(AX_CREATE, axBody('Image 1 crash-after-accept'), 'crash-1').expect(200);
    expect(retry.body.output).toEqual({ task_id: first.body.output.task_id, task_status: 'PENDING' });
    expect(await tasksOf()).toBe(before);
    // The rebuilt answer is stored: the next retry replays it.
    const again = await post(AX_CREATE, axBody('Image 1 crash-after-accept'), 'crash-1').expect(200);
    expect(again.body.output.task_id).toBe(first.body.output.task_id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('vd: the rebuilt answer is the created answer (not the query answer)', async () => {
    const body = { model: 'vdq3', prompt: 'the cat walks', images: ['https://example.com/a.png'] };
    const first = await post(VD_CREATE, body, 'crash-vd').expect(200);
    await forget('crash-vd');
    const retry = await post(VD_CREATE, body, 'crash-vd').expect(200);
    expect(retry.body).toEqual(first.body);
  });

  it('storing the answer fails after the task exists: the retry gets that task, never a second one', async () => {
    const spy = jest
      .spyOn(gw.app.get(IdempotencyService), 'complete')
      .mockRejectedValueOnce(new Error('database went away'));
    try {
      const first = await post(AX_CREATE, axBody('Image 1 store-fails'), 'store-fails');
      const before = await tasksOf();
      const retry = await post(AX_CREATE, axBody('Image 1 store-fails'), 'store-fails').expect(200);
      expect(await tasksOf()).toBe(before);
      if (first.status === 200) expect(retry.body.output.task_id).toBe(first.body.output.task_id);
    } finally {
      spy.mockRestore();
    }
  });

  it('crash while the upstream call ran: 409 only until the task is reconciled, then a new task (the first is never charged)', async () => {
    const first = await post(AX_CREATE, axBody('Image 1 crash-mid-call'), 'crash-2').expect(200);
    const id = first.body.output.task_id as string;
    // The state a crash during the upstream call leaves: the task submitting, the key tied to it, no answer.
    const tasks = ds().getRepository(TaskEntity);
    await tasks.update({ id }, { phase: 'submitting', upstreamTaskId: null, syncDueAt: Date.now() + 60_000 });
    await forget('crash-2');
    const inFlight = await post(AX_CREATE, axBody('Image 1 crash-mid-call'), 'crash-2').expect(409);
    expect(inFlight.body.error.code).toBe('idempotency_in_progress');
    // The worker reconciles it once the call must have ended: the upstream cannot find it by our reference.
    await tasks.update({ id }, { syncDueAt: Date.now() });
    await eventually(async () => (await tasks.findOneBy({ id }))?.phase === 'failed');
    const retry = await post(AX_CREATE, axBody('Image 1 crash-mid-call'), 'crash-2').expect(200);
    expect(retry.body.output.task_id).not.toBe(id);
    expect((await tasks.findOneBy({ id }))?.billingState).toBe('released');
  });

  it('an upstream rejection is not remembered: a retry with the same key runs again', async () => {
    await post(AX_CREATE, axBody('Image 1 sim:reject'), 'rejected-1').expect(400);
    await post(AX_CREATE, axBody('Image 1 sim:reject'), 'rejected-1').expect(400);
  });

  it('two identical requests at once: one task, the other 409 or the same answer', async () => {
    const before = await tasksOf();
    const [a, b] = await Promise.all([
      post(AX_CREATE, axBody('Image 1 race'), 'race-1'),
      post(AX_CREATE, axBody('Image 1 race'), 'race-1'),
    ]);
    expect(await tasksOf()).toBe(before + 1);
    const statuses = [a.status, b.status].sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
  });
});
