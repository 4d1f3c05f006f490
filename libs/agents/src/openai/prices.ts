import { z } from 'zod';

/** USD per million tokens. */
export const ModelPrice = z.strictObject({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) });
export type ModelPrice = z.infer<typeof ModelPrice>;
export const PriceTable = z.record(z.string().min(1), ModelPrice);

/**
 * List prices of common models (USD per million tokens, late 2025). They change: override or extend with
 * OPENAI_PRICES. A model missing here costs 0 (local models), so a cost budget does not stop it.
 */
export const DEFAULT_PRICES: Record<string, ModelPrice> = {
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'text-embedding-3-small': { inputPerMillion: 0.02, outputPerMillion: 0 },
  'text-embedding-3-large': { inputPerMillion: 0.13, outputPerMillion: 0 },
};

/** The cost of a call; a model is looked up by exact name, then by its name without a provider prefix ("openai/gpt-4o"). */
export function costUsd(prices: Record<string, ModelPrice>, model: string, tokensIn: number, tokensOut: number): number {
  const price = prices[model] ?? prices[model.slice(model.lastIndexOf('/') + 1)];
  if (!price) return 0;
  return (tokensIn * price.inputPerMillion + tokensOut * price.outputPerMillion) / 1_000_000;
}
