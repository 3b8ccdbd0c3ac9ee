import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it
 * collects again, in percent. On a machine with a large heap limit V8 allows up to 4x: the gateway
 * keeps 35-50 MB alive under load (mostly code and metadata loaded at start), yet its old space
 * reached 160-175 MB between full collections, the largest part of a ~300 MB peak RSS over the
 * 100,000-request benchmark run (bench/README "peak RSS"). 2x keeps it near 80-90 MB.
 *
 * The price is more full collections, each marking the whole live set again (measured with
 * --trace-gc-nvp over 30,000 requests: 16 instead of 6, ~+0.06 ms CPU per request, main thread and
 * concurrent marking; 1.5x would save ~15 MB more for 28 collections, ~+0.2 ms per request).
 * Only the growth step changes, not the heap limit: a 64 MB Base64 body still fits in the default heap.
 */
export const HEAP_GROWING_PERCENT = 100;

/** The V8 flag, or undefined when the operator already set one (node's command line wins). */
export function heapTuningFlag(execArgv: readonly string[]): string | undefined {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return undefined;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Sets the flag; returns it (undefined when left to the operator). V8 reads it whenever it computes
 * the next collection's limit, so setting it after start-up works (measured); main.ts does it before
 * loading any other module so that the limits set by the start-up collections already use it. The
 * semi-space size, in contrast, is fixed when the isolate is created (setting it here has no effect,
 * measured), so the young generation keeps its 2x16 MB.
 */
export function tuneHeap(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): string | undefined {
  const flag = heapTuningFlag(execArgv);
  if (flag) setFlags(flag);
  return flag;
}
