import type { ClassConstructor } from 'class-transformer';
import type { EntityManager } from 'typeorm';
import type { BillableUsage } from '../core/billing/billable-usage';
import { PricingCatalogue, type PricingRule } from '../core/billing/pricing';
import type { Capability, FamilyId, ModelDescriptor } from '../core/models/model-catalogue';
import type { TaskEntity } from '../core/tasks/entities/task.entity';
import type { CreatedAnswer, FamilyStatusWords, TaskFamilies } from '../core/tasks/task-families';
import { taskFaceOf } from '../core/tasks/task-faces';
import type { EntityClass, MigrationClass } from '../platform/database/data-source-options';
import type { ErrorDialect } from '../platform/errors';
import type { FamilyAction, FamilyDefinition } from './family-definition';

/**
 * The registered families, indexed once at start. Implements the core's ports, so the core asks
 * "which model", "how priced", "how presented" without knowing which families exist.
 */
export class FamilyRegistry extends PricingCatalogue implements TaskFamilies {
  private readonly byId = new Map<FamilyId, FamilyDefinition>();
  private readonly models = new Map<string, ModelDescriptor>();
  private readonly rules = new Map<string, PricingRule<BillableUsage>>();

  constructor(readonly families: readonly FamilyDefinition[]) {
    super();
    for (const family of families) {
      if (this.byId.has(family.id)) throw new Error(`Family '${family.id}' is registered twice.`);
      this.byId.set(family.id, family);
      for (const model of family.models) {
        if (model.family !== family.id)
          throw new Error(
            `Model '${model.name}' is listed by family '${family.id}' but names family '${model.family}'.`,
          );
        if (this.models.has(model.name)) throw new Error(`Model '${model.name}' is registered twice.`);
        this.models.set(model.name, model);
      }
      for (const [kind, rule] of Object.entries(family.pricing.rules)) {
        if (this.rules.has(kind)) throw new Error(`Billable usage '${kind}' is priced by two families.`);
        if (rule.family !== family.id)
          throw new Error(`Pricing rule '${kind}' of family '${family.id}' names family '${rule.family}'.`);
        this.rules.set(kind, rule);
      }
    }
  }

  all(): readonly ModelDescriptor[] {
    return [...this.models.values()];
  }

  find(name: string): ModelDescriptor | undefined {
    return this.models.get(name);
  }

  capabilities(): readonly Capability[] {
    return [...new Set(this.all().flatMap((m) => m.capabilities))];
  }

  pricingRule(kind: string): PricingRule<BillableUsage> | undefined {
    return this.rules.get(kind);
  }

  priceEntryClass(family: FamilyId): ClassConstructor<object> | undefined {
    return this.byId.get(family)?.pricing.entry;
  }

  statusWords(family: FamilyId): FamilyStatusWords {
    return this.family(family).statusWords;
  }

  present(task: TaskEntity): unknown {
    return this.action(task.family, task.action).present(task);
  }

  presentCreated(task: TaskEntity, requestId: string): CreatedAnswer {
    // A task created through another face (the OpenAI-shaped API) is answered in that face's shape.
    const face = taskFaceOf(task);
    if (face) return { body: face.createdBody(task) };
    return this.action(task.family, task.action).presentCreated(task, requestId);
  }

  upstreamOperation(family: FamilyId, action: string): string {
    return this.action(family, action).upstreamOperation;
  }

  canLookUpByReference(family: FamilyId): boolean {
    return this.family(family).lookupByReference;
  }

  async onSucceeded(task: TaskEntity, tx: EntityManager): Promise<void> {
    await this.action(task.family, task.action).onSucceeded?.(task, tx);
  }

  /** The tables the families own. */
  entities(): EntityClass[] {
    return this.families.flatMap((f) => f.entities ?? []);
  }

  /** The migrations of those tables (the app runs them with the core's). */
  migrations(): MigrationClass[] {
    return this.families.flatMap((f) => f.migrations ?? []);
  }

  errorDialects(): ErrorDialect[] {
    return this.families.map((f) => f.errors);
  }

  private family(id: FamilyId): FamilyDefinition {
    const family = this.byId.get(id);
    if (!family) throw new Error(`No family '${id}' is registered.`);
    return family;
  }

  private action(family: FamilyId, action: string): FamilyAction {
    const found = Object.prototype.hasOwnProperty.call(this.family(family).actions, action)
      ? this.family(family).actions[action]
      : undefined;
    if (!found) throw new Error(`Family '${family}' has no task action '${action}'.`);
    return found;
  }
}
