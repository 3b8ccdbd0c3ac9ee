import type { EntityManager } from 'typeorm';
import type { FamilyId } from '../models/model-catalogue';
import type { TaskEntity } from './entities/task.entity';

/** A family's own status words for the states the gateway itself sets (creation, and endings it decides). */
export interface FamilyStatusWords {
  readonly submitted: string;
  readonly succeeded: string;
  readonly failed: string;
  /** A cancelled task; a family without a word of its own for it says `failed`. */
  readonly cancelled?: string;
}

/** A creation answer: the body the create endpoint returns, with the headers it sets. */
export interface CreatedAnswer {
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What a task's life needs from its family, filled from the family definitions at start: the
 * words it speaks, how a task looks to its caller, and how its upstream finds tasks again.
 */
export abstract class TaskFamilies {
  abstract statusWords(family: FamilyId): FamilyStatusWords;
  /** The task's query answer, exactly as the family's query endpoint shows it (also the client callback body). */
  abstract present(task: TaskEntity): unknown;
  /**
   * The task's creation answer (body and headers), rebuilt from the record for an `Idempotency-Key` retry whose first
   * answer was never stored; `requestId` is the retry's.
   */
  abstract presentCreated(task: TaskEntity, requestId: string): CreatedAnswer;
  /** The upstream operation that creates and fetches tasks of this action. */
  abstract upstreamOperation(family: FamilyId, action: string): string;
  /** The upstream can find a task by the gateway's own ID sent at creation (to adopt an unconfirmed creation). */
  abstract canLookUpByReference(family: FamilyId): boolean;
  /**
   * Runs inside the transaction that switches the task to succeeded, only for the finisher that
   * won the switch: the family records what the task produced (a failure rolls the switch back).
   * Does nothing unless the family's action defines it.
   */
  onSucceeded(_task: TaskEntity, _tx: EntityManager): Promise<void> {
    return Promise.resolve();
  }
}
