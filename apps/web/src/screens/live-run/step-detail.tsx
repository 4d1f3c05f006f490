import type { RunActivityView } from '../../api/types';
import type { StepEntry } from './timeline';

/**
 * What one step worked on, from the run's activity: the query a retrieve shard ran, the source an extract shard
 * read and the evidence it took, an iteration's new claims and contradictions. Nothing when the activity does not
 * have it (yet): the step line still says what the events say.
 */
export function StepDetail({ step, activity }: { step: StepEntry; activity: RunActivityView | null }) {
  if (!activity) return null;
  const same = (x: { iteration: number; shard: number }) => x.iteration === step.iteration && x.shard === step.shard;
  switch (step.node) {
    case 'retrieve': {
      const q = activity.queries.find(same);
      return q ? (
        <span className="step-detail" data-detail="query">
          Searching {q.provider === 'corpus' ? 'the collection' : q.provider} for “{q.query}”
        </span>
      ) : null;
    }
    case 'extract': {
      const r = activity.reading.find(same);
      return r ? (
        <span className="step-detail" data-detail="reading">
          {step.state === 'done' ? 'Read' : 'Reading'} “{r.title}”{step.state === 'done' ? ` · ${r.evidence} evidence` : ''}
        </span>
      ) : null;
    }
    case 'claims': {
      const c = activity.claims.find((x) => x.iteration === step.iteration);
      return c && step.state === 'done' ? (
        <span className="step-detail" data-detail="claims">
          {c.count} claims, e.g. {c.examples.map((e) => `“${e}”`).join('; ')}
        </span>
      ) : null;
    }
    case 'contradictions': {
      const found = activity.contradictions.filter((x) => x.iteration === step.iteration);
      return found.length > 0 && step.state === 'done' ? (
        <span className="step-detail" data-detail="contradictions">
          {found.length} disagreement{found.length === 1 ? '' : 's'}:{' '}
          {found
            .slice(0, 3)
            .map((x) => `${x.kind} — ${x.note}`)
            .join('; ')}
        </span>
      ) : null;
    }
    default:
      return null;
  }
}
