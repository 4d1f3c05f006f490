import { z } from 'zod';
import { nodeTable, type FanoutNodeOf, type NodeNameOf } from './node-table';
import type { ServiceName } from './services';

const count = z.int().min(0);

/**
 * Every node of the workflow (docs/architecture.md §3), declared once: the service that runs it, whether it fans out, what it
 * reports when it completes (the facts the router reads: fan-out sizes, loop signals; plus counts for progress),
 * and the agent roles its handler calls. Names, queues, the fan-out set, the step-job union and the result
 * schemas below are derived from this table. Gates are not nodes: a gate is a pause between two nodes.
 * Adding a node: a row here, its edges in a new graph version (libs/workflow), a handler, a role (docs/decisions/0013).
 */
export const NODES = nodeTable({
  scope: {
    label: 'Scope',
    phase: 'plan',
    description: 'research objective and scope (included/excluded topics, time frame, risk level)',
    service: 'planner',
    fanout: false,
    roles: ['director'],
    result: z.strictObject({ topics: count }),
  },
  perspectives: {
    label: 'Analysts',
    phase: 'plan',
    description: 'analyst personas (name, role, affiliation, focus, budget weight)',
    service: 'planner',
    fanout: false,
    roles: ['perspectivePlanner'],
    result: z.strictObject({ perspectives: count }),
  },
  questions: {
    label: 'Questions',
    phase: 'plan',
    description: 'research questions with parent/child edges and priority',
    service: 'planner',
    fanout: false,
    roles: ['questionArchitect'],
    result: z.strictObject({ questions: count }),
  },
  /** `queries` is the fan-out of `retrieve`. */
  search_plan: {
    label: 'Search plan',
    phase: 'research',
    description: 'search plans for the frontier questions (≤ 6 questions, ≤ 8 queries per iteration offline)',
    service: 'searcher',
    fanout: false,
    roles: ['queryPlanner'],
    result: z.strictObject({ queries: count }),
  },
  retrieve: {
    label: 'Search',
    phase: 'research',
    description: "source records from the run's providers, merged by canonical URL and reciprocal-rank fusion (a shard per query)",
    service: 'searcher',
    fanout: true,
    roles: [],
    result: z.strictObject({ results: count }),
  },
  /** `sources` is the fan-out of `extract`. */
  source_policy: {
    label: 'Choose sources',
    phase: 'research',
    description: 'canonical URLs, dedup, authority class, block/allow rules, robots.txt, full-text fetch of the best into snapshots',
    service: 'searcher',
    fanout: false,
    roles: [],
    result: z.strictObject({ sources: count }),
  },
  extract: {
    label: 'Extract evidence',
    phase: 'research',
    description: 'evidence fragments: exact excerpt + offsets, normalized statement, confidence (a shard per source)',
    service: 'extractor',
    fanout: true,
    roles: ['evidenceCurator'],
    result: z.strictObject({ evidence: count }),
  },
  claims: {
    label: 'Claims',
    phase: 'research',
    description: 'atomic claims with epistemic status and evidence ids; near-duplicates of earlier claims merged',
    service: 'claims',
    fanout: false,
    roles: ['claimBuilder'],
    result: z.strictObject({ claims: count }),
  },
  contradictions: {
    label: 'Contradictions',
    phase: 'research',
    description: "contradictions found by vector search over the run's claims and judged (numbers, units, dates, negation)",
    service: 'claims',
    fanout: false,
    roles: ['counterEvidence'],
    result: z.strictObject({ contradictions: count }),
  },
  coverage: {
    label: 'Coverage',
    phase: 'research',
    description: "per-question coverage and the iteration's information gain",
    service: 'claims',
    fanout: false,
    roles: ['coverageAssessor'],
    result: z.strictObject({ covered: count, open: count }),
  },
  /**
   * The loop signals: the router stops research when gain is low or nothing is left to ask, unless a person
   * added questions at this boundary (`addedQuestions`, counted in `openQuestions` too): those are researched
   * while iterations and budget allow (absent: none).
   */
  moderate: {
    label: 'Moderate',
    phase: 'research',
    description: 'applies queued interventions; follow-up questions for the next iteration, or leave the loop',
    service: 'claims',
    fanout: false,
    roles: ['moderator'],
    result: z.strictObject({ informationGain: z.number().min(0).max(1), openQuestions: count, addedQuestions: count.optional() }),
  },
  /**
   * One turn of one analyst's interview (a shard per analyst, a step per turn: decision 0024): the analyst asks, the expert
   * searches the run's sources and answers with cited evidence. `closed`: the analyst is satisfied (no more turns).
   * `queries`: searches the turn issued (at least one, issue 28); `sources`: sources it read.
   */
  interview: {
    label: 'Interview',
    phase: 'interviews',
    description:
      "one turn of an analyst's interview: the analyst asks, the expert searches and answers with cited evidence (a shard per analyst)",
    service: 'searcher',
    fanout: true,
    roles: ['interviewAnalyst', 'evidenceCurator', 'interviewExpert'],
    result: z.strictObject({ queries: count, sources: count, evidence: count, sentences: count, closed: z.boolean() }),
  },
  /** `sections` is the fan-out of `draft` and of every `verify` round. */
  outline: {
    label: 'Outline',
    phase: 'write',
    description: 'outline sections with the claim ids each must use',
    service: 'writer',
    fanout: false,
    roles: ['outlineArchitect'],
    result: z.strictObject({ sections: count }),
  },
  draft: {
    label: 'Draft section',
    phase: 'write',
    description: 'section drafts; long evidence drafted in batches (a shard per section)',
    service: 'writer',
    fanout: true,
    roles: ['sectionWriter'],
    result: z.strictObject({ sentences: count }),
  },
  /** `failing` sentences (unsupported, contradicted, uncited) send the run to `repair`. */
  verify: {
    label: 'Verify section',
    phase: 'write',
    description: 'one finding per sentence: supported / unsupported / contradicted / uncited (a shard per section)',
    service: 'verifier',
    fanout: true,
    roles: ['verifier'],
    result: z.strictObject({ checked: count, failing: count }),
  },
  repair: {
    label: 'Repair',
    phase: 'write',
    description: 'failing sentences rewritten or dropped, then verified again',
    service: 'writer',
    fanout: false,
    roles: ['repairer', 'verifier'],
    result: z.strictObject({ repaired: count, dropped: count }),
  },
  frame: {
    label: 'Frame',
    phase: 'write',
    description: 'introduction with the main findings (cited), conclusion naming what stays open; verified',
    service: 'writer',
    fanout: false,
    roles: ['framer'],
    result: z.strictObject({ sections: count }),
  },
  render: {
    label: 'Render',
    phase: 'write',
    description: 'report.md, .html, .json, .pdf: numbered sources with their real URLs, the disagreements section',
    service: 'renderer',
    fanout: false,
    roles: [],
    result: z.strictObject({ artifacts: count }),
  },
});

/** The rows of the table, as a type: what `NodeName`, `NodeResultOf` and `StepJob` are derived from. */
export type CoreNodeRows = (typeof NODES)['rows'];

export const NODE_NAMES = NODES.names;
export const NodeName = NODES.nodeName;
export type NodeName = NodeNameOf<CoreNodeRows>;

/** Which service owns (runs) each node. The queue of a node is the queue of its service. */
export const NODE_SERVICE: { readonly [N in NodeName]: ServiceName } = NODES.service;

export function nodesOfService(service: ServiceName): NodeName[] {
  return NODES.nodesOf(service);
}

/** Nodes that fan out: one step per shard, joined by the node that follows. */
export const FANOUT_NODES = NODES.fanout;
export type FanoutNode = FanoutNodeOf<CoreNodeRows>;
export function isFanoutNode(node: NodeName): node is FanoutNode {
  return NODES.isFanout(node);
}

export const GATE_NAMES = ['plan', 'outline', 'publish'] as const;
export const GateName = z.enum(GATE_NAMES);
export type GateName = z.infer<typeof GateName>;
