import type { FamilyId } from '../models/model-catalogue';
import type { TaskEntity } from './entities/task.entity';

/** A family's own status words for the states the gateway itself sets (creation, and endings it decides). */
export interface FamilyStatusWords {
  readonly submitted: string;
  readonly succeeded: string;
  readonly failed: string;
}

/**
 * What a task's life needs from its family, filled from the family definitions at start: the
 * words it speaks, how a task looks to its caller, and how its upstream finds tasks again.
 */
export abstract class TaskFamilies {
  abstract statusWords(family: FamilyId): FamilyStatusWords;
  /** The task's query answer, exactly as the family's query endpoint shows it (also the client callback body). */
  abstract present(task: TaskEntity): unknown;
  /** The upstream operation that creates and fetches tasks of this action. */
  abstract upstreamOperation(family: FamilyId, action: string): string;
  /** The upstream can find a task by the gateway's own ID sent at creation (to adopt an unconfirmed creation). */
  abstract canLookUpByReference(family: FamilyId): boolean;
}
