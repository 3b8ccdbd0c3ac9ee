import { CallbackDispatcher } from './callback-dispatcher';
import { SimHandler } from './http/sim-answer';
import { ForcedPatch, SimCredentials } from './sim-types';
import { linkSignature } from './result-links';

/** What each family simulator gets from the running simulator. */
export interface FamilyContext {
  /** Read at task creation, so `setTaskMs` affects tasks created afterwards. */
  taskMs(): number;
  callbacks: CallbackDispatcher;
  /** What this vendor's server accepts. */
  credentials: SimCredentials;
  /** This family server's origin, e.g. `http://127.0.0.1:4001`. */
  baseUrl: string;
}

export interface FamilySimulator {
  readonly handle: SimHandler;
  /** Throws when the task is unknown, so a test with a wrong ID fails loudly. */
  forceState(upstreamTaskId: string, patch: ForcedPatch | null): void;
  /** Ends the task now with its outcome (test control); absent where the family has no use for it. */
  finish?(upstreamTaskId: string): void;
}

/**
 * URL of one of the server's own sample files; `tag` keeps URLs distinct per task. Signed and
 * expiring like a vendor's result link (see result-links.ts).
 */
export function assetUrl(baseUrl: string, file: 'sample.mp4' | 'sample.png', tag?: Record<string, string>): string {
  const path = `/assets/${file}`;
  const params = new URLSearchParams({ ...tag, ...linkSignature(baseUrl, path) }).toString();
  return `${baseUrl}${path}${params ? `?${params}` : ''}`;
}
