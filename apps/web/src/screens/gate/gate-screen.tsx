import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, messageOf } from '../../api/client';
import type { ApprovalView, ClaimView, OutlineSubject, PlanSubject } from '../../api/types';
import { useSession } from '../../auth';
import { Link, navigate, paths } from '../../router';
import { Alert, Loading, PageTitle } from '../../ui/common';
import { formatDateTime } from '../../ui/format';
import { RunNotFound } from '../live-run/not-found';
import { OutlineEditor, outlineChanged, outlineDraftOf, outlineOf, type OutlineDraftSection } from './outline-editor';
import { changesOf, draftOf, PlanEditor, planOf, type PlanDraft } from './plan-editor';

const isPlan = (s: ApprovalView['subject']): s is PlanSubject => s !== null && 'perspectives' in s;
const isOutline = (s: ApprovalView['subject']): s is OutlineSubject => s !== null && 'sections' in s;

/** The open gate of a run, shown in full and editable in place; approve (with the edits) or reject with feedback. */
export function GateScreen({ runId }: { runId: string }) {
  const { me } = useSession();
  const [approval, setApproval] = useState<ApprovalView | null | undefined>(undefined);
  const [missing, setMissing] = useState(false);
  const [plan, setPlan] = useState<PlanDraft | null>(null);
  const [outline, setOutline] = useState<OutlineDraftSection[] | null>(null);
  const [claims, setClaims] = useState<Map<string, string>>(new Map());
  const [feedback, setFeedback] = useState('');
  const [error, setError] = useState<{ message: string; issues: string[] } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api<{ items: ApprovalView[] }>('GET', `/v1/runs/${encodeURIComponent(runId)}/approvals`)
      .then((r) => {
        const open = r.items.find((a) => a.status === 'open') ?? null;
        setApproval(open);
        if (open && isPlan(open.subject)) setPlan(draftOf(open.subject));
        if (open && isOutline(open.subject)) {
          setOutline(outlineDraftOf(open.subject));
          void api<{ items: ClaimView[] }>('GET', `/v1/runs/${encodeURIComponent(runId)}/claims`).then((c) =>
            setClaims(new Map(c.items.map((x) => [x.id, x.statement]))),
          );
        }
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setMissing(true);
        else setError({ message: messageOf(err), issues: [] });
      });
  }, [runId]);

  const changes = useMemo(() => {
    if (approval && plan && isPlan(approval.subject)) return changesOf(approval.subject, plan);
    if (approval && outline && isOutline(approval.subject))
      return outlineChanged(approval.subject, outline) ? ['the outline was edited'] : [];
    return [];
  }, [approval, plan, outline]);

  if (missing) return <RunNotFound runId={runId} />;
  if (approval === undefined) return error ? <Alert>{error.message}</Alert> : <Loading what="the gate" />;
  if (approval === null) {
    return (
      <>
        <PageTitle title="Gate">No gate is waiting</PageTitle>
        <p>This run is not waiting for a decision.</p>
        <p>
          <Link to={paths.run(runId)}>Back to the run</Link>
        </p>
      </>
    );
  }

  const readOnly = !me.canWrite;
  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    setError(null);
    const body =
      decision === 'reject'
        ? { decision, feedback }
        : {
            decision,
            ...(changes.length > 0 && plan ? { plan: planOf(plan) } : {}),
            ...(changes.length > 0 && outline ? { outline: outlineOf(outline) } : {}),
          };
    try {
      await api('POST', `/v1/approvals/${approval.id}`, body);
      navigate(paths.run(runId));
    } catch (err) {
      setError({ message: messageOf(err), issues: err instanceof ApiError ? err.issues : [] });
      setBusy(false);
    }
  };

  return (
    <>
      <p className="eyebrow">
        <Link to={paths.run(runId)}>← Back to the run</Link>
      </p>
      <PageTitle title={`${approval.gate} gate`}>
        Review the {approval.gate} (revision {approval.revision + 1})
      </PageTitle>
      <p className="muted">
        Opened {formatDateTime(approval.openedAt)}
        {approval.expiresAt ? ` · expires ${formatDateTime(approval.expiresAt)}` : ''}.{' '}
        {readOnly
          ? 'Your key is read-only: you can look, not decide.'
          : 'Edit it directly, then approve; or reject it with feedback for a new revision.'}
      </p>
      {plan && <PlanEditor draft={plan} onChange={setPlan} readOnly={readOnly} />}
      {outline && <OutlineEditor sections={outline} onChange={setOutline} claims={claims} readOnly={readOnly} />}
      {approval.gate === 'publish' && (
        <p>The report is written and verified. Approve to render it, or reject with feedback to reframe it.</p>
      )}
      {!readOnly && (
        <section className="decision" aria-labelledby="decision-title">
          <h2 id="decision-title">Decision</h2>
          {changes.length > 0 && (
            <div className="changes" role="status">
              <p>
                <strong>{changes.length} change(s)</strong> will be applied with the approval:
              </p>
              <ul>
                {changes.map((c, i) => (
                  <li key={i}>{c}</li>
                ))}
              </ul>
            </div>
          )}
          {error && (
            <Alert>
              {error.message}
              {error.issues.length > 0 && (
                <ul>
                  {error.issues.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ul>
              )}
            </Alert>
          )}
          <div className="decision-grid">
            <div>
              <button type="button" className="primary" disabled={busy} onClick={() => void decide('approve')}>
                {changes.length > 0 ? `Approve with ${changes.length} edit(s)` : `Approve the ${approval.gate}`}
              </button>
            </div>
            <div className="field">
              <label htmlFor="feedback">Feedback for a new revision</label>
              <textarea id="feedback" rows={3} value={feedback} maxLength={4000} onChange={(e) => setFeedback(e.target.value)} />
              <button type="button" className="danger" disabled={busy || feedback.trim() === ''} onClick={() => void decide('reject')}>
                Reject with feedback
              </button>
            </div>
          </div>
        </section>
      )}
    </>
  );
}
