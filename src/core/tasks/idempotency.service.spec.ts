import { createHash } from 'crypto';
import { idempotencyRecordFactory, taskFactory } from '../../../test/factories';
import { FakeTasksRepository, InMemoryRepository } from '../../../test/fakes';
import { ManualClock } from '../../platform/time/clock';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity';
import { IdempotencyService } from './idempotency.service';
import { CREATION_UNCONFIRMED } from './task-lifecycle.service';

const BODY = { model: 'ax-model', prompt: 'a cat', duration: 5 };
const REQUEST = IdempotencyService.fingerprint('POST', '/ax/v1/tasks', BODY);

function setup(...records: Array<Partial<IdempotencyRecordEntity>>) {
  const clock = new ManualClock();
  const repo = new InMemoryRepository(
    IdempotencyRecordEntity,
    ...records.map((r) =>
      idempotencyRecordFactory.build({ accountId: 'acct_1', key: 'k1', requestHash: REQUEST.hash, ...r }),
    ),
  );
  const tasks = new FakeTasksRepository();
  const service = new IdempotencyService(repo, tasks, clock);
  return { service, repo, tasks, clock };
}

describe('IdempotencyService', () => {
  it('fingerprints the meaning of the body: member order aside, equal; another value, method or path, different', () => {
    const reordered = IdempotencyService.fingerprint('POST', '/ax/v1/tasks', {
      duration: 5,
      prompt: 'a cat',
      model: 'ax-model',
    });
    expect(reordered.hash).toBe(REQUEST.hash);
    expect(REQUEST.hash).toMatch(/^c1:[\w-]{43}$/);
    for (const other of [
      IdempotencyService.fingerprint('POST', '/ax/v1/tasks', { ...BODY, duration: 10 }),
      IdempotencyService.fingerprint('PUT', '/ax/v1/tasks', BODY),
      IdempotencyService.fingerprint('POST', '/vd/v1/tasks', BODY),
    ])
      expect(other.hash).not.toBe(REQUEST.hash);
  });

  it('proceeds when no task was created under the key', async () => {
    const { service } = setup();
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toEqual({ kind: 'proceed' });
  });

  it('keeps keys per account: another account with the same key proceeds', async () => {
    const { service } = setup({ state: 'done', responseStatus: 200, responseBody: { id: 'task_1' } });
    await expect(service.begin('acct_2', 'k1', REQUEST)).resolves.toEqual({ kind: 'proceed' });
  });

  it('replays a stored answer with its status and headers', async () => {
    const { service } = setup({
      state: 'done',
      responseStatus: 201,
      responseBody: { id: 'task_1' },
      responseHeaders: { 'x-a': '1' },
    });
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { id: 'task_1' },
      headers: { 'x-a': '1' },
    });
  });

  it('refuses the key with another body (422 on Idempotency-Key) and keeps the record', async () => {
    const { service, repo } = setup({ state: 'done', responseStatus: 200, responseBody: {} });
    const other = IdempotencyService.fingerprint('POST', '/ax/v1/tasks', { ...BODY, prompt: 'a dog' });
    await expect(service.begin('acct_1', 'k1', other)).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_mismatch',
      param: 'Idempotency-Key',
    });
    expect(repo.rows).toHaveLength(1);
  });

  it('compares a record stored in the plain form (hex SHA-256 of the body as sent) in that form', async () => {
    const plain = createHash('sha256')
      .update(`POST /ax/v1/tasks\n${JSON.stringify(BODY)}`)
      .digest('hex');
    const { service } = setup({ requestHash: plain, state: 'done', responseStatus: 200, responseBody: { ok: 1 } });
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toMatchObject({ kind: 'replay' });
    const reordered = IdempotencyService.fingerprint('POST', '/ax/v1/tasks', {
      prompt: 'a cat',
      model: 'ax-model',
      duration: 5,
    });
    await expect(service.begin('acct_1', 'k1', reordered)).rejects.toMatchObject({ status: 422 });
  });

  it('answers 409 while the first request is still creating its task', async () => {
    const { service, tasks } = setup({ taskId: 'task_1' });
    tasks.put(taskFactory.build({ id: 'task_1', accountId: 'acct_1', phase: 'submitting' }));
    await expect(service.begin('acct_1', 'k1', REQUEST)).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_in_progress',
    });
  });

  it('rebuilds the answer from a task whose answer was never stored', async () => {
    const { service, tasks } = setup({ taskId: 'task_1' });
    tasks.put(taskFactory.build({ id: 'task_1', accountId: 'acct_1', phase: 'active' }));
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toMatchObject({
      kind: 'task',
      task: { id: 'task_1' },
    });
  });

  it.each([
    ['rejected by the upstream', { phase: 'rejected' as const }],
    ['never confirmed', { phase: 'failed' as const, failureCode: CREATION_UNCONFIRMED }],
  ])('drops the record of a creation %s: nothing was created, the request proceeds', async (_case, task) => {
    const { service, repo, tasks } = setup({ taskId: 'task_1' });
    tasks.put(taskFactory.build({ id: 'task_1', accountId: 'acct_1', ...task }));
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toEqual({ kind: 'proceed' });
    expect(repo.rows).toEqual([]);
  });

  it('a task that failed upstream after its creation was confirmed is still the answer', async () => {
    const { service, tasks } = setup({ taskId: 'task_1' });
    tasks.put(
      taskFactory.build({ id: 'task_1', accountId: 'acct_1', phase: 'failed', failureCode: 'upstream_failed' }),
    );
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toMatchObject({ kind: 'task' });
  });

  it('forgets a record past its expiry', async () => {
    const { service, repo, clock } = setup({ state: 'done', responseStatus: 200, responseBody: {} });
    clock.advance(24 * 3600 * 1000);
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toEqual({ kind: 'proceed' });
    expect(repo.rows).toEqual([]);
  });

  it('an in-flight record naming no task is in progress for 5 minutes, then stale and dropped', async () => {
    const { service, repo, clock } = setup({ taskId: null });
    await expect(service.begin('acct_1', 'k1', REQUEST)).rejects.toMatchObject({ status: 409 });
    clock.advance(5 * 60 * 1000 + 1);
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toEqual({ kind: 'proceed' });
    expect(repo.rows).toEqual([]);
  });

  it('stores the answer to replay on completion', async () => {
    const { service, repo } = setup({ taskId: 'task_1' });
    await service.complete('acct_1', 'k1', { status: 200, body: { id: 'task_1' }, headers: { 'x-b': '2' } });
    expect(repo.rows[0]).toMatchObject({
      state: 'done',
      responseStatus: 200,
      responseBody: { id: 'task_1' },
      responseHeaders: { 'x-b': '2' },
    });
    await expect(service.begin('acct_1', 'k1', REQUEST)).resolves.toMatchObject({ kind: 'replay', status: 200 });
  });
});
