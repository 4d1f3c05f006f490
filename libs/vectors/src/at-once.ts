/** How many vector searches a store without batches has in flight at once (`searchMany` on LanceDB). */
export const SEARCHES_AT_ONCE = 8;

/**
 * `fn` of every item, up to `limit` at once, the results in the items' order. A step's vector searches were awaited one
 * after the other, one round trip each on the run's critical path (decision 0134); a store that takes batches answers
 * them in one request instead (`searchMany`, decision 0156).
 */
export async function atOnce<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, limit = SEARCHES_AT_ONCE): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
