import type { RunEventMessage } from '../../api/run-events';

export interface StepEntry {
  kind: 'step';
  key: string;
  node: string;
  iteration: number;
  shard: number;
  /** `failed`: the run failed at this step; `stopped`: the run was cancelled or failed elsewhere while it ran. */
  state: 'running' | 'retrying' | 'done' | 'failed' | 'stopped';
  attempts: number;
  startedAt: string;
  completedAt?: string;
  result?: Record<string, unknown>;
  error?: string;
}

export interface MilestoneEntry {
  kind: 'milestone';
  key: string;
  seq: number;
  at: string;
  type: string;
  text: string;
  tone: 'info' | 'good' | 'bad' | 'gate';
}

export type TimelineEntry = StepEntry | MilestoneEntry;

export interface Timeline {
  entries: TimelineEntry[];
  /** Every event received, in seq order: the activity log (and what the live view's tests compare with the server's log). */
  events: RunEventMessage[];
  lastSeq: number;
}

export const EMPTY_TIMELINE: Timeline = { entries: [], events: [], lastSeq: 0 };

const gateText = (gate: string) => `${gate[0]!.toUpperCase()}${gate.slice(1)} gate`;
const INTERVENTION_LABEL: Record<string, string> = {
  add_question: 'add a question',
  exclude_domain: 'exclude a domain',
  exclude_source: 'exclude a source',
  narrow_scope: 'narrow the scope',
};

/** One event folded into the timeline: steps are one entry each (started → completed), other events are milestones. */
export function applyEvent(t: Timeline, e: RunEventMessage): Timeline {
  if (e.seq <= t.lastSeq) return t;
  const d = e.data;
  const events = [...t.events, e];
  const milestone = (text: string, tone: MilestoneEntry['tone']): Timeline => ({
    entries: [...t.entries, { kind: 'milestone', key: `m${e.seq}`, seq: e.seq, at: e.at, type: d.type, text, tone }],
    events,
    lastSeq: e.seq,
  });
  switch (d.type) {
    case 'step_started':
    case 'step_completed':
    case 'step_retrying': {
      const key = `${d.node}.${d.iteration}.${d.shard}`;
      const i = t.entries.findIndex((x) => x.kind === 'step' && x.key === key);
      const prev = i >= 0 ? (t.entries[i] as StepEntry) : undefined;
      const base: StepEntry = prev ?? {
        kind: 'step',
        key,
        node: d.node,
        iteration: d.iteration,
        shard: d.shard,
        state: 'running',
        attempts: 0,
        startedAt: e.at,
      };
      const next: StepEntry =
        d.type === 'step_started'
          ? { ...base, state: 'running', attempts: d.attempt, startedAt: prev?.startedAt ?? e.at }
          : d.type === 'step_retrying'
            ? { ...base, state: 'retrying', attempts: d.attempt, error: d.error }
            : { ...base, state: 'done', completedAt: e.at, result: d.result };
      const entries = i >= 0 ? t.entries.map((x, j) => (j === i ? next : x)) : insertStep(t.entries, next);
      return { entries, events, lastSeq: e.seq };
    }
    case 'run_created':
      return milestone('Run created', 'info');
    case 'gate_opened':
      return milestone(`${gateText(d.gate)} opened (revision ${d.revision + 1}): waiting for a decision`, 'gate');
    case 'gate_decided':
      return milestone(
        `${gateText(d.gate)} ${d.decision === 'approve' ? (d.edited ? 'approved with edits' : 'approved') : d.decision === 'reject' ? 'rejected' : 'expired'}${d.feedback ? `: “${d.feedback}”` : ''}`,
        d.decision === 'approve' ? 'good' : 'bad',
      );
    case 'research_stopped':
      return milestone(`Research stopped after iteration ${d.iteration + 1} (${d.reason.replaceAll('_', ' ')})`, 'info');
    case 'budget_exhausted':
      return milestone(`Budget exhausted: ${d.budget.replaceAll('_', ' ')}`, 'bad');
    case 'run_completed':
      return milestone('Run completed', 'good');
    case 'run_failed': {
      const next = milestone(`Run failed${d.node ? ` at ${d.node.replaceAll('_', ' ')}` : ''}: ${d.error}`, 'bad');
      return {
        ...next,
        entries: endUnfinished(next.entries, (s) => (s.node === d.node ? { state: 'failed', error: d.error } : { state: 'stopped' })),
      };
    }
    case 'run_cancelled': {
      const next = milestone(`Run cancelled: ${d.reason}`, 'bad');
      return { ...next, entries: endUnfinished(next.entries, () => ({ state: 'stopped' })) };
    }
    case 'run_resumed':
      return milestone('Run resumed', 'info');
    case 'intervention_queued':
      return milestone(`Intervention queued: ${INTERVENTION_LABEL[d.intervention] ?? d.intervention}`, 'info');
    case 'intervention_applied':
      return milestone(
        `Intervention applied at iteration ${d.iteration + 1}: ${INTERVENTION_LABEL[d.intervention] ?? d.intervention}`,
        'good',
      );
    case 'intervention_discarded':
      return milestone(`Intervention discarded (${d.reason})`, 'bad');
    default:
      return milestone((d as { type: string }).type.replaceAll('_', ' '), 'info');
  }
}

/**
 * A new step's place: after the other shards of its fan-out (same node and iteration) with lower numbers, so
 * shards read 1, 2, 3, 4 whatever order the workers started them in; a step of a new group goes last.
 */
function insertStep(entries: TimelineEntry[], step: StepEntry): TimelineEntry[] {
  const sibling = (x: TimelineEntry): x is StepEntry => x.kind === 'step' && x.node === step.node && x.iteration === step.iteration;
  const after = entries.findLastIndex((x) => sibling(x) && x.shard < step.shard);
  const before = entries.findIndex((x) => sibling(x) && x.shard > step.shard);
  const at = after >= 0 ? after + 1 : before >= 0 ? before : entries.length;
  return [...entries.slice(0, at), step, ...entries.slice(at)];
}

/** The run ended (failed or cancelled): a step still shown as running is not running any more. */
function endUnfinished(entries: TimelineEntry[], end: (s: StepEntry) => Pick<StepEntry, 'state' | 'error'>): TimelineEntry[] {
  return entries.map((x) => (x.kind === 'step' && (x.state === 'running' || x.state === 'retrying') ? { ...x, ...end(x) } : x));
}

/** "12 evidence, 3 claims": a step's result counts in words. */
export function resultSummary(result: Record<string, unknown> | undefined): string {
  if (!result) return '';
  return Object.entries(result)
    .filter(([, v]) => typeof v === 'number')
    .map(
      ([k, v]) =>
        `${k === 'informationGain' ? `gain ${(Number(v) * 100).toFixed(0)}%` : `${String(v)} ${k.replace(/([A-Z])/g, ' $1').toLowerCase()}`}`,
    )
    .join(', ');
}
