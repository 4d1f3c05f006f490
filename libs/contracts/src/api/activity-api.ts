import { z } from 'zod';

/**
 * `GET /v1/runs/{id}/activity`: what the research steps worked on, keyed as the timeline's steps are (iteration,
 * shard), so a live view can say which query a retrieve shard ran, which source an extract shard read and how much
 * evidence it took, and what each iteration's claims and contradictions were. Texts are clipped; counts are whole.
 */
export const RunActivityView = z.strictObject({
  queries: z.array(z.strictObject({ iteration: z.int(), shard: z.int(), query: z.string(), provider: z.string() })),
  reading: z.array(
    z.strictObject({
      iteration: z.int(),
      shard: z.int(),
      title: z.string(),
      url: z.string(),
      origin: z.string(),
      evidence: z.int().min(0),
    }),
  ),
  claims: z.array(z.strictObject({ iteration: z.int(), count: z.int().min(0), examples: z.array(z.string()) })),
  contradictions: z.array(z.strictObject({ iteration: z.int(), kind: z.string(), note: z.string() })),
});
export type RunActivityView = z.infer<typeof RunActivityView>;
