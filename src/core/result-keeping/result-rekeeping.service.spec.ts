import { resultFileFactory, succeededTask, taskFactory } from '../../../test/factories';
import { FakeTransactionRunner, InMemoryResultFiles, OWNER_ORIGIN, inMemoryAuditTrail } from '../../../test/fakes';
import { ManualClock } from '../../platform/time/clock';
import { ResultRekeeping } from './result-rekeeping.service';
import type { ResultKeeper } from './result-keeper.service';
import { resultSlots } from './result-slots';

describe('ResultRekeeping', () => {
  function setup(options: { enabled?: boolean; files?: ConstructorParameters<typeof InMemoryResultFiles> } = {}) {
    const clock = new ManualClock();
    const files = new InMemoryResultFiles(...(options.files ?? []));
    const audit = inMemoryAuditTrail(clock);
    const keeper = { enabled: options.enabled ?? true } as ResultKeeper;
    const service = new ResultRekeeping(files, keeper, new FakeTransactionRunner(), audit.trail, clock);
    return { service, files, audit };
  }

  it('queues every file the task shows that was never queued, and audits it', async () => {
    const task = succeededTask();
    const f = setup();
    const after = await f.service.keepAgain(task, OWNER_ORIGIN);
    expect(after.map((file) => [file.slot, file.status])).toEqual(resultSlots(task).map((s) => [s.slot, 'pending']));
    const slots = resultSlots(task).map((s) => s.slot);
    expect(f.audit.entries()).toEqual([
      {
        action: 'task.results_keep',
        target: { type: 'task', id: task.id, accountId: task.accountId },
        before: Object.fromEntries(slots.map((slot) => [slot, 'none'])),
        after: Object.fromEntries(slots.map((slot) => [slot, 'pending'])),
      },
    ]);
  });

  it('queues again a file not kept (failed, removed), and leaves a kept one alone', async () => {
    const task = succeededTask();
    const [first, second] = resultSlots(task);
    const f = setup({
      files: [
        resultFileFactory.build({ id: 'f1', taskId: task.id, slot: first.slot, status: 'removed', attempts: 3 }),
        ...(second
          ? [resultFileFactory.build({ id: 'f2', taskId: task.id, slot: second.slot, status: 'stored' })]
          : []),
      ],
    });
    const after = await f.service.keepAgain(task, OWNER_ORIGIN);
    expect(after.find((file) => file.id === 'f1')).toMatchObject({ status: 'pending', attempts: 0 });
    if (second) expect(after.find((file) => file.id === 'f2')?.status).toBe('stored');
    expect(f.audit.entries()[0].before).toEqual({ [first.slot]: 'removed' });
  });

  it('refuses with 409, changing nothing, when every file is kept or being kept', async () => {
    const task = succeededTask();
    const f = setup({
      files: resultSlots(task).map((s, i) =>
        resultFileFactory.build({ id: `f${i}`, taskId: task.id, slot: s.slot, status: i ? 'pending' : 'stored' }),
      ),
    });
    await expect(f.service.keepAgain(task, OWNER_ORIGIN)).rejects.toMatchObject({ status: 409 });
    expect(f.audit.entries()).toEqual([]);
  });

  it.each([
    ['a task that did not succeed', taskFactory.build({ phase: 'failed' }), true, /Only a succeeded task/],
    ['a task its owner deleted', succeededTask({ deletedAt: 1 }), true, /deleted this task/],
    ['a task that shows no file', succeededTask({ result: { videos: [], voices: [] } }), true, /shows no result file/],
    ['a gateway that keeps no files', succeededTask(), false, /RESULT_STORE=off/],
  ])('refuses %s with 409 and the reason', async (_k, task, enabled, reason) => {
    const f = setup({ enabled });
    await expect(f.service.keepAgain(task, OWNER_ORIGIN)).rejects.toMatchObject({ status: 409, message: reason });
    expect(f.files.rows.size).toBe(0);
    expect(f.audit.entries()).toEqual([]);
  });
});
