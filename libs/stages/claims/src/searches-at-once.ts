/** How many vector searches one step has in flight at once. */
export const SEARCHES_AT_ONCE = 8;

/**
 * `fn` of every item, up to `limit` at once, the results in the items' order. A step's vector searches were awaited one
 * after the other — a claim's neighbours, then each of its passages', for every claim — so a step paid one round trip
 * to the vector store per search on the run's critical path (decision 0134); the results are used in the same order
 * as before, so what the step decides does not change.
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
