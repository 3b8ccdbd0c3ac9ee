import { taskFactory } from '../../../test/factories';
import { FakeTasksRepository, principal } from '../../../test/fakes';
import { TaskEntity } from './entities/task.entity';
import { TaskQueries } from './task-queries.service';

function setup(...tasks: TaskEntity[]) {
  const repository = new FakeTasksRepository();
  for (const task of tasks) repository.put(task);
  return { queries: new TaskQueries(repository), repository };
}

describe('TaskQueries', () => {
  it('finds the caller’s own task of the route’s family and action', async () => {
    const { queries } = setup(taskFactory.build({ id: 'task_1' }));
    await expect(queries.findVisible(principal(), 'ax', 'task_1', 'r2v')).resolves.toMatchObject({ id: 'task_1' });
    await expect(queries.findVisible(principal(), 'ax', 'task_1')).resolves.toMatchObject({ id: 'task_1' });
  });

  it.each([
    ['of another account', { accountId: 'acct_2' }, undefined],
    ['of another family', { family: 'vd' }, undefined],
    ['of another action', { action: 'i2v' }, undefined],
    ['rejected at creation', { phase: 'rejected' as const }, undefined],
    ['deleted by its owner', { deletedAt: 1 }, undefined],
    ['of a model the key may not use', { model: 'ax-pro' }, ['ax-model']],
  ])('answers 404 for a task %s, as for one that does not exist', async (_case, overrides, keyModels) => {
    const { queries } = setup(taskFactory.build({ id: 'task_1', ...overrides }));
    await expect(queries.findVisible(principal({}, keyModels ?? null), 'ax', 'task_1', 'r2v')).rejects.toMatchObject({
      status: 404,
    });
  });

  it('lists a page of the caller’s tasks newest first, within the key’s models, with the exact total', async () => {
    const mine = [1, 2, 3, 4, 5].map((n) =>
      taskFactory.build({ id: `task_${n}`, createdAt: n * 1000, model: n === 3 ? 'ax-pro' : 'ax-model' }),
    );
    const { queries } = setup(
      ...mine,
      taskFactory.build({ id: 'task_other', accountId: 'acct_2', createdAt: 9000 }),
      taskFactory.build({ id: 'task_gone', createdAt: 8000, deletedAt: 8500 }),
    );
    const page = await queries.list(principal({}, ['ax-model']), {
      family: 'ax',
      action: 'r2v',
      page: 2,
      pageSize: 2,
    });
    expect(page.total).toBe(4);
    expect(page.items.map((t) => t.id)).toEqual(['task_2', 'task_1']);
  });
});
