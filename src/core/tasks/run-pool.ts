import { bulkhead } from 'cockatiel';

/**
 * Runs `work` over `items` with at most `concurrency` in flight (cockatiel's bulkhead; the rest
 * wait in its queue, in order). A failing item does not stop the others: each item's own error
 * handling lives in `work`.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  const pool = bulkhead(concurrency, Infinity);
  await Promise.all(items.map((item) => pool.execute(() => work(item)).catch(() => undefined)));
}
