import { Injectable } from '@nestjs/common';
import type { TaskEntity } from './entities/task.entity';

/** Renders a task as its family's query response (used for client callbacks). */
export type TaskPresenter = (task: TaskEntity) => unknown;

/**
 * Families register how their tasks look; the engine uses it for callback bodies, so a callback
 * carries exactly what the query endpoint would answer.
 */
@Injectable()
export class TaskPresenters {
  private readonly byAction = new Map<string, TaskPresenter>();

  register(action: string, presenter: TaskPresenter): void {
    this.byAction.set(action, presenter);
  }

  present(task: TaskEntity): unknown {
    const presenter = this.byAction.get(task.action);
    if (!presenter) throw new Error(`No presenter registered for task action '${task.action}'.`);
    return presenter(task);
  }
}
