import { z } from 'zod';
import type { NodeName } from './nodes';

const count = z.int().min(0);

/**
 * What each node reports when it completes: the persisted facts the router reads to decide what runs
 * next (fan-out sizes, loop signals), plus counts for progress. Everything else a node produces is
 * written to its own tables in the same transaction.
 */
export const NODE_RESULT_SCHEMAS = {
  scope: z.strictObject({ topics: count }),
  perspectives: z.strictObject({ perspectives: count }),
  questions: z.strictObject({ questions: count }),
  /** `queries` is the fan-out of `retrieve`. */
  search_plan: z.strictObject({ queries: count }),
  retrieve: z.strictObject({ results: count }),
  /** `sources` is the fan-out of `extract`. */
  source_policy: z.strictObject({ sources: count }),
  extract: z.strictObject({ evidence: count }),
  claims: z.strictObject({ claims: count }),
  contradictions: z.strictObject({ contradictions: count }),
  coverage: z.strictObject({ covered: count, open: count }),
  /**
   * The loop signals: the router stops research when gain is low or nothing is left to ask, unless a person
   * added questions at this boundary (`addedQuestions`, counted in `openQuestions` too): those are researched
   * while iterations and budget allow (absent: none).
   */
  moderate: z.strictObject({ informationGain: z.number().min(0).max(1), openQuestions: count, addedQuestions: count.optional() }),
  /** `sections` is the fan-out of `draft` and of every `verify` round. */
  outline: z.strictObject({ sections: count }),
  draft: z.strictObject({ sentences: count }),
  /** `failing` sentences (unsupported, contradicted, uncited) send the run to `repair`. */
  verify: z.strictObject({ checked: count, failing: count }),
  repair: z.strictObject({ repaired: count, dropped: count }),
  frame: z.strictObject({ sections: count }),
  render: z.strictObject({ artifacts: count }),
} satisfies { [N in NodeName]: z.ZodType };

export type NodeResultOf<N extends NodeName> = z.infer<(typeof NODE_RESULT_SCHEMAS)[N]>;
export type AnyNodeResult = NodeResultOf<NodeName>;

export function parseNodeResult<N extends NodeName>(node: N, value: unknown): NodeResultOf<N> {
  return NODE_RESULT_SCHEMAS[node].parse(value) as NodeResultOf<N>;
}
