import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/time/clock';
import { ResultKeeper } from '../result-keeping/result-keeper.service';
import { TaskEntity } from './entities/task.entity';
import { TasksRepository } from './tasks.repository';

/**
 * An owner's deletion of a finished task, whichever public API asks for it: the task is gone from
 * every client read from then on (queries and lists of every route, result URLs), its kept files
 * are deleted, and what was billed stays billed. Operators still see it, marked deleted.
 */
@Injectable()
export class TaskDeletion {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly keeper: ResultKeeper,
    private readonly clock: Clock,
  ) {}

  static deletable(task: Pick<TaskEntity, 'phase'>): boolean {
    return task.phase === 'succeeded' || task.phase === 'failed' || task.phase === 'cancelled';
  }

  /**
   * The files first, then the record: a deletion cut short leaves the task visible, so the
   * owner's retry completes it. False when the task is not finished (nothing is changed then).
   */
  async delete(task: TaskEntity): Promise<boolean> {
    if (!TaskDeletion.deletable(task)) return false;
    await this.keeper.discard(task.id);
    await this.tasks.markDeleted(task.id, this.clock.nowMs());
    return true;
  }
}
