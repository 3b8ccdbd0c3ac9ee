/**
 * The model catalogue: every model the gateway knows, as data in one place.
 * Per-model request rules live beside this file (`rules/`), keyed by the same names.
 */
export type Family = 'kl' | 'ax' | 'vd';

/** Capabilities are named by endpoint group (CONTRACT §2). */
export type Capability = 'editing.selection' | 'editing.task' | 'voices' | 'reference2video';
export const ALL_CAPABILITIES: readonly Capability[] = ['editing.selection', 'editing.task', 'voices', 'reference2video'];

/** The wire protocol the upstream speaks for this model. */
export type Protocol = 'kl-v1' | 'ax-r2v-new' | 'ax-r2v-old' | 'vd-ref2video';

export interface ModelDescriptor {
  /** Public model name, as callers send it. */
  readonly name: string;
  readonly family: Family;
  readonly protocol: Protocol;
  readonly capabilities: readonly Capability[];
  /** Name sent upstream unless a channel maps it to another. */
  readonly upstreamModel: string;
}

const KL_CAPABILITIES: Capability[] = ['editing.selection', 'editing.task', 'voices'];

function family(familyName: Family, protocol: Protocol, capabilities: Capability[], names: string[]): ModelDescriptor[] {
  return names.map((name) => ({ name, family: familyName, protocol, capabilities, upstreamModel: name }));
}

export const MODEL_CATALOGUE: readonly ModelDescriptor[] = Object.freeze([
  ...family('kl', 'kl-v1', KL_CAPABILITIES, ['kl-v1', 'kl-v1-6']),
  ...family('ax', 'ax-r2v-new', ['reference2video'], ['wx2.7-r2v', 'wx2.7-r2v-2026-06-12']),
  ...family('ax', 'ax-r2v-old', ['reference2video'], ['wx2.6-r2v', 'wx2.6-r2v-flash']),
  ...family('vd', 'vd-ref2video', ['reference2video'], ['vdq3-mix', 'vdq3-turbo', 'vdq3', 'vdq2-pro', 'vdq2', 'vdq1', 'vd2.0']),
]);

const BY_NAME = new Map(MODEL_CATALOGUE.map((m) => [m.name, m]));

export function findModel(name: string): ModelDescriptor | undefined {
  return BY_NAME.get(name);
}

export function isKnownModel(name: unknown): name is string {
  return typeof name === 'string' && BY_NAME.has(name);
}

/** Family A's global default model (SPEC.md "Model selection"). */
export const KL_DEFAULT_MODEL = 'kl-v1';
/** The only model of the family A editing-task endpoint. */
export const KL_EDITING_TASK_MODEL = 'kl-v1-6';
