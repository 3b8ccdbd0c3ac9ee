import type { ClassConstructor } from 'class-transformer';
import type { EntityManager } from 'typeorm';
import type { Type } from '@nestjs/common';
import type { PricingRule } from '../core/billing/pricing';
import type { BillableUsage } from '../core/billing/billable-usage';
import type { FamilyId, ModelDescriptor } from '../core/models/model-catalogue';
import type { TaskEntity } from '../core/tasks/entities/task.entity';
import type { CreatedAnswer, FamilyStatusWords } from '../core/tasks/task-families';
import type { EntityClass, MigrationClass } from '../platform/database/data-source-options';
import type { ErrorDialect } from '../platform/errors';

/** One kind of task a family runs (its list `action`). */
export interface FamilyAction {
  /** The upstream client's operation that creates and fetches it. */
  readonly upstreamOperation: string;
  /** The task's query answer from the stored record; also the client callback body. */
  present(task: TaskEntity): unknown;
  /**
   * The create endpoint's answer from the stored record (it differs from the query answer): what
   * an `Idempotency-Key` retry gets when the first answer was cut by a crash or never stored
   * (`requestId`: the retry's, for bodies that carry one).
   */
  presentCreated(task: TaskEntity, requestId: string): CreatedAnswer;
  /** Optional: records what a succeeded task produced, in the transaction of its terminal switch (once). */
  onSucceeded?(task: TaskEntity, tx: EntityManager): Promise<void>;
}

/**
 * Everything the core needs to know of a family, in one object in the family's folder. The core
 * reads these through its ports (`ModelCatalogue`, `PricingCatalogue`, `TaskFamilies`) and never
 * names a family; adding one is a folder and a line in `src/families/index.ts` (with its upstream
 * and simulator vendors: docs/architecture.md, "How to add a family").
 */
export interface FamilyDefinition {
  /** Short name: the URL segment (`/kl/...`), the upstream protocol and `task.family`. */
  readonly id: FamilyId;
  readonly models: readonly ModelDescriptor[];
  readonly statusWords: FamilyStatusWords;
  /** Native error fields for requests under the family's path. */
  readonly errors: ErrorDialect;
  /** Task kinds by action name. */
  readonly actions: Readonly<Record<string, FamilyAction>>;
  readonly pricing: {
    /** The class-validator shape of one model's entry in the pricing table. */
    readonly entry: ClassConstructor<object>;
    /** How each of the family's billable-usage kinds is priced. */
    readonly rules: Readonly<Record<string, PricingRule<BillableUsage>>>;
  };
  /** The upstream finds a task by the gateway's own ID sent at creation (see `TaskFamilies`). */
  readonly lookupByReference: boolean;
  /** The Nest module with the family's controllers and services. */
  readonly module: Type<unknown>;
  /** The tables the family owns beyond the core's (its module registers them with `forFeature` too). */
  readonly entities?: readonly EntityClass[];
  /** The migrations that create and change those tables; run with the core's, by timestamp. */
  readonly migrations?: readonly MigrationClass[];
}
