import { useEffect, useRef, useState } from 'react';
import type { CapabilitiesView, RunView } from '../../api/types';
import { api, messageOf } from '../../api/client';
import { followRunEvents, type StreamState } from '../../api/run-events';
import { useSession } from '../../auth';
import { Link, paths } from '../../router';
import { Alert, Loading, PageTitle, StatusBadge } from '../../ui/common';
import { formatDateTime } from '../../ui/format';
import { Counters } from './counters';
import { InterventionsPanel } from './interventions-panel';
import { RunNotFound } from './not-found';
import { applyEvent, EMPTY_TIMELINE, type Timeline } from './timeline';
import { TimelineView } from './timeline-view';
import { useActivity } from './use-activity';
import { TERMINAL, useRun } from './use-run';

/**
 * Why resuming this failed run would only fail again, or null: its engine or a search provider it uses is not
 * configured on this server (GET /v1/capabilities). A resume retries the failed step with the same options.
 */
export function resumeBlocker(run: RunView, caps: CapabilitiesView | null): string | null {
  if (!caps || run.status !== 'failed') return null;
  const engine = caps.engines.find((e) => e.name === (run.options['engine'] ?? 'offline'));
  if (engine && !engine.available) return engine.reason;
  const used = (run.options['searchProviders'] as string[] | undefined) ?? [];
  const missing = caps.searchProviders.find((p) => used.includes(p.name) && !p.available);
  return missing ? `${missing.name}: ${missing.reason}` : null;
}

const STREAM_LABEL: Record<StreamState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Connection lost: reconnecting…',
  ended: 'Finished: all events received',
  failed: 'Event stream unavailable',
};

export function LiveRunScreen({ runId }: { runId: string }) {
  const { me } = useSession();
  const { run, setRun, error, missing, load, refreshSoon } = useRun(runId);
  const [timeline, setTimeline] = useState<Timeline>(EMPTY_TIMELINE);
  const [stream, setStream] = useState<StreamState>('connecting');
  const [generation, setGeneration] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [caps, setCaps] = useState<CapabilitiesView | null>(null);
  const { activity, refreshSoon: refreshActivity } = useActivity(runId);
  const lastSeq = useRef(0);
  const keepRunning = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!me.canWrite) return;
    api<CapabilitiesView>('GET', '/v1/capabilities')
      .then(setCaps)
      .catch(() => setCaps(null));
  }, [me.canWrite]);
  useEffect(() => {
    if (confirming) keepRunning.current?.focus();
  }, [confirming]);

  useEffect(() => {
    if (missing) return;
    const ctl = new AbortController();
    void followRunEvents(runId, {
      after: lastSeq.current,
      signal: ctl.signal,
      onState: (s) => setStream(s),
      onEvent: (e) => {
        lastSeq.current = Math.max(lastSeq.current, e.seq);
        setTimeline((t) => {
          const next = applyEvent(t, e);
          if (t.entries.every((x) => x.kind !== 'step') && next.entries.some((x) => x.kind === 'step')) {
            // For the figure "time from page load to first step shown" (performance.timeOrigin is the page load).
            requestAnimationFrame(() => performance.mark('dossier:first-step-shown'));
          }
          return next;
        });
        refreshSoon();
        refreshActivity();
      },
      isFinished: async () => {
        const view = await load();
        return view !== null && TERMINAL.includes(view.status);
      },
    });
    return () => ctl.abort();
  }, [runId, generation, missing, load, refreshSoon, refreshActivity]);

  if (missing) return <RunNotFound runId={runId} />;
  if (!run) return error ? <Alert>{error}</Alert> : <Loading what="the run" />;

  const terminal = TERMINAL.includes(run.status);
  const blocker = resumeBlocker(run, caps);
  const act = async (what: 'cancel' | 'resume') => {
    setConfirming(false);
    setBusy(true);
    setActionError(null);
    try {
      setRun(await api('POST', `/v1/runs/${runId}/${what}`, {}));
      // A resumed run streams again from the last event shown.
      if (what === 'resume') setGeneration((g) => g + 1);
    } catch (err) {
      setActionError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="page-head">
        <div>
          <p className="eyebrow">
            Run <code>{run.id}</code>
          </p>
          <PageTitle title="Live run">{run.question}</PageTitle>
          <p className="meta">
            <StatusBadge status={run.status} /> <span>Engine {String(run.options['engine'] ?? 'offline')}</span> ·{' '}
            <span>started {formatDateTime(run.createdAt)}</span>
            {run.currentNode && !terminal && <span> · at {run.currentNode.replaceAll('_', ' ')}</span>}
          </p>
        </div>
        <div className="head-actions">
          {run.status === 'completed' && (
            <Link to={paths.report(run.id)} className="button primary">
              Open report
            </Link>
          )}
          <Link to={paths.audit(run.id)} className="button">
            Audit log
          </Link>
          {me.canWrite && !terminal && (
            <button
              ref={cancelButton}
              type="button"
              className="danger"
              disabled={busy || confirming}
              aria-expanded={confirming}
              onClick={() => setConfirming(true)}
            >
              Cancel run
            </button>
          )}
          {me.canWrite && (run.status === 'failed' || run.status === 'cancelled') && !blocker && (
            <button type="button" className="primary" disabled={busy} onClick={() => void act('resume')}>
              Resume run
            </button>
          )}
        </div>
      </div>
      {confirming && !terminal && (
        <div className="confirm" role="group" aria-labelledby="confirm-cancel-text">
          <p id="confirm-cancel-text">
            <strong>Cancel this run?</strong> It stops after the step in progress. What it gathered is kept, and it can be resumed later.
          </p>
          <button type="button" className="danger" onClick={() => void act('cancel')}>
            Yes, cancel the run
          </button>
          <button
            ref={keepRunning}
            type="button"
            onClick={() => {
              setConfirming(false);
              requestAnimationFrame(() => cancelButton.current?.focus());
            }}
          >
            Keep it running
          </button>
        </div>
      )}
      {me.canWrite && blocker && <Alert kind="info">Resuming would fail again until this is configured on the server: {blocker}</Alert>}
      {actionError && <Alert>{actionError}</Alert>}
      {run.failureReason && <Alert kind={run.status === 'cancelled' ? 'info' : 'error'}>{run.failureReason}</Alert>}
      {run.status === 'awaiting_approval' && run.awaitingGate && (
        <div className="gate-banner" role="status">
          <p>
            <strong>Waiting at the {run.awaitingGate} gate.</strong>{' '}
            {me.canWrite ? 'Review it, edit it if needed, then approve or reject.' : 'Someone with write access must decide it.'}
          </p>
          <Link to={paths.gate(run.id)} className="button primary">
            {me.canWrite ? `Review the ${run.awaitingGate}` : `See the ${run.awaitingGate}`}
          </Link>
        </div>
      )}
      <p className={`stream stream-${stream}`} role="status" aria-live="polite" data-stream-state={stream}>
        {STREAM_LABEL[stream]}
      </p>
      <div className="live-grid">
        <div>
          <h2>Timeline</h2>
          <TimelineView timeline={timeline} activity={activity} />
          <details className="activity">
            <summary>Activity log ({timeline.events.length} events)</summary>
            <ol className="event-log">
              {timeline.events.map((e) => (
                <li key={e.seq} data-seq={e.seq}>
                  <span className="seq">#{e.seq}</span> <span className="etype">{e.data.type}</span>{' '}
                  <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString('en-GB')}</time>
                </li>
              ))}
            </ol>
          </details>
        </div>
        <aside aria-label="Run counters and steering">
          <Counters run={run} />
          <InterventionsPanel run={run} canWrite={me.canWrite} lastSeq={timeline.lastSeq} />
        </aside>
      </div>
    </>
  );
}
