/**
 * What the core knows of models: their shape, and a port to look them up. The models themselves
 * are data in each family's definition (`src/families/<family>`); the core never names one.
 */

/** A family's short name, also its URL segment and its upstream protocol (`kl`, `ax`, `vd`). */
export type FamilyId = string;

/** Capabilities are named by endpoint group, e.g. `reference2video`, `voices`. */
export type Capability = string;

export interface ModelDescriptor {
  /** Public model name, as callers send it. */
  readonly name: string;
  readonly family: FamilyId;
  /** The wire protocol variant the family uses for this model (e.g. ax's old and new protocol). */
  readonly protocol: string;
  readonly capabilities: readonly Capability[];
}

/** Every model the gateway serves, across the registered families. */
export abstract class ModelCatalogue {
  abstract all(): readonly ModelDescriptor[];
  abstract find(name: string): ModelDescriptor | undefined;
  /** Every capability some model has. */
  abstract capabilities(): readonly Capability[];
}
