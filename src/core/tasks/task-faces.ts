import type { EntityManager } from 'typeorm';
import type { TaskEntity } from './entities/task.entity';

/**
 * A second public API over the families' tasks (the OpenAI-shaped one): a task created through it
 * carries the face's name in its creation echo, and its client callbacks speak the face's shape
 * instead of the family's. Faces register at start; the core names none of them.
 */
export interface TaskFace {
  readonly name: string;
  /** The create answer rebuilt from the record, for an `Idempotency-Key` retry whose first answer was not stored. */
  createdBody(task: TaskEntity): unknown;
  /**
   * The client callback body for a task that reached its end. Given `keptIn` (a redelivery, after
   * the task ended), it tells the task's kept copies too, read in that transaction, as a query
   * would now; at the end itself there are none yet.
   */
  callbackBody(task: TaskEntity, keptIn?: EntityManager): unknown;
}

/** The creation echo key naming the face a task was created through. */
export const TASK_FACE_ECHO = '_face';

const faces = new Map<string, TaskFace>();

export function registerTaskFace(face: TaskFace): void {
  faces.set(face.name, face);
}

/** The face the task was created through, when it was not its family's own route. */
export function taskFaceOf(task: Pick<TaskEntity, 'creationEcho'>): TaskFace | undefined {
  const name = task.creationEcho?.[TASK_FACE_ECHO];
  return typeof name === 'string' ? faces.get(name) : undefined;
}
