import type { UpstreamFamily } from '../upstream.types';

/** `ok`/`MISMATCH` are verdicts against what the gateway expects; `info` is shown, not judged. */
export type Verdict = 'ok' | 'MISMATCH' | 'info';

/** One line of the smoke report: a field the upstream sent, next to what the gateway expects of it. */
export interface SmokeRow {
  readonly family: UpstreamFamily;
  /** Which call it came from: `auth`, `create`, `poll`, `lookup`, `result`. */
  readonly step: string;
  readonly field: string;
  readonly seen: string;
  readonly expected: string;
  readonly verdict: Verdict;
}
