/**
 * Runs `work` over `items` with at most `concurrency` in flight. A failing item does not stop the
 * others (each item's own error handling lives in `work`).
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item).catch(() => undefined);
    }
  });
  await Promise.all(lanes);
}
