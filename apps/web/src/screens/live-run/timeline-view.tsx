import { formatDuration, NODE_LABEL } from '../../ui/format';
import type { RunActivityView } from '../../api/types';
import { StepDetail } from './step-detail';
import { resultSummary, type Timeline } from './timeline';

export function TimelineView({ timeline, activity = null }: { timeline: Timeline; activity?: RunActivityView | null }) {
  if (timeline.entries.length === 0) return <p className="muted">No steps yet.</p>;
  return (
    <ol className="timeline" aria-label="Steps and events">
      {timeline.entries.map((x) =>
        x.kind === 'step' ? (
          <li key={x.key} className={`step step-${x.state}`} data-step={x.key}>
            <span className="step-node">{NODE_LABEL[x.node] ?? x.node}</span>
            <span className="step-where">
              iteration {x.iteration + 1}
              {x.shard > 0 || ['retrieve', 'extract', 'draft', 'verify'].includes(x.node) ? ` · shard ${x.shard + 1}` : ''}
            </span>
            <span className="step-state">
              {x.state === 'done'
                ? formatDuration(new Date(x.completedAt!).getTime() - new Date(x.startedAt).getTime())
                : x.state === 'retrying'
                  ? `retrying (attempt ${x.attempts})`
                  : x.state === 'failed'
                    ? 'failed'
                    : x.state === 'stopped'
                      ? 'stopped'
                      : 'running…'}
            </span>
            <span className="step-counts">{x.state === 'failed' ? x.error : resultSummary(x.result)}</span>
            <StepDetail step={x} activity={activity} />
          </li>
        ) : (
          <li key={x.key} className={`milestone tone-${x.tone}`} data-milestone={x.type}>
            {x.text}
          </li>
        ),
      )}
    </ol>
  );
}
