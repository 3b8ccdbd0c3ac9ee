import { Principal } from '../../core/accounts/principal';
import { FamilyId, ModelDescriptor } from '../../core/models/model-catalogue';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { TaskEngine } from '../../core/tasks/task-engine.service';
import { TaskQueries } from '../../core/tasks/task-queries.service';
import type { RequestContext } from '../../platform/http/request-context';
import { FamilyTaskKind, FamilyTasksService } from './family-tasks.service';

interface Checked {
  prompt: string;
}

const KIND: FamilyTaskKind<Checked, { created: string; rid: string }, { id: string; rid: string }> = {
  family: 'zz' as FamilyId,
  action: 'make',
  draft: (request) => ({
    upstreamBody: { prompt: request.prompt },
    snapshot: { prompt: request.prompt },
    billing: { kind: 'zz' } as never,
    creationEcho: { prompt: request.prompt },
  }),
  presentCreated: (task, requestId) => ({ created: task.id, rid: requestId }),
  present: (task, requestId) => ({ id: task.id, rid: requestId }),
};

describe('FamilyTasksService', () => {
  const ctx = { requestId: 'req-1' } as RequestContext;
  const principal = { account: { id: 'acct_1' } } as Principal;
  const model = { name: 'zz-1' } as ModelDescriptor;
  const task = { id: 'task_1' } as TaskEntity;

  function service() {
    const create = jest.fn(async () => task);
    const findVisible = jest.fn(async () => task);
    const tasks = new FamilyTasksService(
      { create } as unknown as TaskEngine,
      { findVisible } as unknown as TaskQueries,
    );
    return { tasks, create, findVisible };
  }

  it("creates the kind's task from the checked request and answers with the kind's creation answer", async () => {
    const { tasks, create } = service();
    await expect(tasks.create(KIND, ctx, principal, model, { prompt: 'p' })).resolves.toEqual({
      created: 'task_1',
      rid: 'req-1',
    });
    expect(create).toHaveBeenCalledWith(
      principal,
      {
        family: 'zz',
        action: 'make',
        model,
        upstreamBody: { prompt: 'p' },
        snapshot: { prompt: 'p' },
        billing: { kind: 'zz' },
        creationEcho: { prompt: 'p' },
      },
      ctx,
    );
  });

  it("reads the caller's task of the family and presents it with the asking request's ID", async () => {
    const { tasks, findVisible } = service();
    await expect(tasks.get(KIND, ctx, principal, 'task_1')).resolves.toEqual({ id: 'task_1', rid: 'req-1' });
    expect(findVisible).toHaveBeenCalledWith(principal, 'zz', 'task_1');
  });
});
