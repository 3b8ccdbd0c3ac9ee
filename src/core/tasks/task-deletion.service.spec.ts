import { ManualClock } from '../../platform/time/clock';
import { ResultKeeper } from '../result-keeping/result-keeper.service';
import { TaskEntity } from './entities/task.entity';
import { TaskDeletion } from './task-deletion.service';
import { isDeleted } from './task-queries.service';
import { TasksRepository } from './tasks.repository';

function setup() {
  const steps: string[] = [];
  const keeper = { discard: jest.fn(async (id: string) => void steps.push(`discard ${id}`)) };
  const tasks = { markDeleted: jest.fn(async (id: string) => (steps.push(`mark ${id}`), true)) };
  const clock = new ManualClock(new Date(5000));
  const deletion = new TaskDeletion(tasks as unknown as TasksRepository, keeper as unknown as ResultKeeper, clock);
  return { deletion, steps, tasks };
}

const task = (phase: TaskEntity['phase']) => Object.assign(new TaskEntity(), { id: 'task_1', phase, deletedAt: null });

describe('TaskDeletion', () => {
  it.each(['succeeded', 'failed'] as const)('deletes a %s task: its files first, then the record', async (phase) => {
    const { deletion, steps, tasks } = setup();
    expect(await deletion.delete(task(phase))).toBe(true);
    expect(steps).toEqual(['discard task_1', 'mark task_1']);
    expect(tasks.markDeleted).toHaveBeenCalledWith('task_1', 5000);
  });

  it.each(['submitting', 'active', 'rejected'] as const)('leaves a %s task as it is', async (phase) => {
    const { deletion, steps } = setup();
    expect(await deletion.delete(task(phase))).toBe(false);
    expect(steps).toEqual([]);
  });

  it('tells a deleted task by its deletion time', () => {
    expect(isDeleted({ deletedAt: null })).toBe(false);
    expect(isDeleted({ deletedAt: 1 })).toBe(true);
  });
});
