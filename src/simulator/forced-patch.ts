import { ForcedPatch } from './sim-types';

/**
 * Per-task overrides set by tests through `forceState`, applied to the query answer (and to the
 * callback, which carries the same body) so a test can make an upstream say anything it likes.
 */
export class ForcedPatches {
  private readonly patches = new Map<string, ForcedPatch>();

  set(taskId: string, patch: ForcedPatch | null): void {
    if (patch === null) this.patches.delete(taskId);
    else this.patches.set(taskId, patch);
  }

  apply(taskId: string, body: unknown): unknown {
    const patch = this.patches.get(taskId);
    if (!patch) return body;
    if (typeof patch === 'function') return patch(structuredClone(body));
    return deepMerge(structuredClone(body), patch);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Plain objects merge key by key; anything else replaces; an `undefined` value deletes the key. */
export function deepMerge(target: unknown, patch: Record<string, unknown>): unknown {
  const result: Record<string, unknown> = isPlainObject(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete result[key];
    else if (isPlainObject(value)) result[key] = deepMerge(result[key], value);
    else result[key] = value;
  }
  return result;
}
