import { useNodes } from '../../api/nodes';
import { formatDuration } from '../../ui/format';
import { resultSummary, type Timeline } from './timeline';

export function TimelineView({ timeline }: { timeline: Timeline }) {
  const nodes = useNodes();
  if (timeline.entries.length === 0) return <p className="muted">No steps yet.</p>;
  return (
    <ol className="timeline" aria-label="Steps and events">
      {timeline.entries.map((x) =>
        x.kind === 'step' ? (
          <li key={x.key} className={`step step-${x.state}`} data-step={x.key}>
            <span className="step-node">{nodes.get(x.node)?.label ?? x.node}</span>
            <span className="step-where">
              iteration {x.iteration + 1}
              {x.shard > 0 || nodes.get(x.node)?.fanout ? ` · shard ${x.shard + 1}` : ''}
            </span>
            <span className="step-state">
              {x.state === 'done'
                ? formatDuration(new Date(x.completedAt!).getTime() - new Date(x.startedAt).getTime())
                : x.state === 'retrying'
                  ? `retrying (attempt ${x.attempts})`
                  : 'running…'}
            </span>
            <span className="step-counts">{resultSummary(x.result)}</span>
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
