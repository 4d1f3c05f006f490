import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, apiBlob, ApiError, messageOf } from '../../api/client';
import type { ReportJson, RunVerification, RunView } from '../../api/types';
import { useSession } from '../../auth';
import { Link, paths } from '../../router';
import { Alert, Loading, PageTitle } from '../../ui/common';
import { formatDate, formatDuration, formatInt, formatUsd, sourceMeta } from '../../ui/format';
import { RunNotFound } from '../live-run/not-found';
import { Citation, citationsOf } from './citation';
import { paragraphBlocks } from './paragraph-blocks';
import { FollowUpPanel } from './follow-up-panel';
import { SharePanel } from './share-panel';
import { isWebUrl, OpenSourceContext, ReportAccessContext, SourceViewer, type ReportAccess, type SourceRequest } from './source-viewer';

const STATUS_HELP: Record<string, string> = {
  established: 'several independent sources agree',
  reported: 'stated by a source, not confirmed by another',
  contested: 'sources disagree',
  speculative: 'hedged or forecast',
};

export function ReportScreen({ runId }: { runId: string }) {
  const { me } = useSession();
  const [report, setReport] = useState<ReportJson | null>(null);
  const [run, setRun] = useState<RunView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    const id = encodeURIComponent(runId);
    Promise.all([api<RunView>('GET', `/v1/runs/${id}`), api<ReportJson>('GET', `/v1/runs/${id}/report.json`)])
      .then(([r, rep]) => {
        setRun(r);
        setReport(rep);
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setMissing(true);
        else setError(messageOf(err));
      });
  }, [runId]);
  const access = useMemo<ReportAccess>(
    () => ({
      file: (format) => `/v1/runs/${encodeURIComponent(runId)}/report.${format}`,
      source: (hash) => `/v1/sources/${encodeURIComponent(hash)}`,
    }),
    [runId],
  );

  if (missing) return <RunNotFound runId={runId} />;
  if (error) {
    return (
      <>
        <PageTitle title="Report">Report</PageTitle>
        <Alert>{error}</Alert>
        <p>
          <Link to={paths.run(runId)}>Back to the run</Link>
        </p>
      </>
    );
  }
  if (!report || !run) return <Loading what="the report" />;
  const canAct = me.canWrite && run.status === 'completed';
  return (
    <ReportBody
      report={report}
      runId={runId}
      verification={run.progress?.verification}
      access={access}
      nav={
        <p className="eyebrow">
          <Link to={paths.run(runId)}>← Back to the run</Link> · <Link to={paths.audit(runId)}>Audit log</Link>
          {typeof (run.options['followUp'] as { of?: unknown } | undefined)?.of === 'string' && (
            <>
              {' '}
              · <Link to={paths.report((run.options['followUp'] as { of: string }).of)}>The report this follows up</Link>
            </>
          )}
        </p>
      }
      tools={
        canAct ? (
          <div className="report-tools">
            <FollowUpPanel runId={runId} sourceCount={Object.keys(report.sources).length} />
            <SharePanel runId={runId} />
          </div>
        ) : null
      }
    />
  );
}

interface ReportBodyProps {
  report: ReportJson;
  runId: string;
  /** The run's verification figures from the runs API (or the share link's), the same as the report's (decision 0086). */
  verification: RunVerification | null | undefined;
  access: ReportAccess;
  /** Links above the title (none on a shared report: its reader reaches nothing else). */
  nav?: ReactNode;
  /** Above the text: follow-up and share for the run's owners; the link's validity on a shared report. */
  tools?: ReactNode;
}

/** The report as read: its sections with citations, claims, contradictions, figures and sources, and the source viewer. */
export function ReportBody({ report, runId, verification: v, access, nav, tools }: ReportBodyProps) {
  const [viewing, setViewing] = useState<SourceRequest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sources = useMemo(() => Object.entries(report.sources).sort((a, b) => a[1].number - b[1].number), [report]);
  /** Every passage of each source the report uses: what the Sources list opens the viewer on. */
  const passagesBySource = useMemo(() => {
    const by = new Map<string, SourceRequest['passages']>();
    for (const [evidenceId, e] of Object.entries(report.evidence)) {
      by.set(e.sourceId, [...(by.get(e.sourceId) ?? []), { evidenceId, start: e.start, end: e.end }]);
    }
    return by;
  }, [report]);

  const download = async (format: 'md' | 'html' | 'json' | 'pdf') => {
    try {
      const blob = await apiBlob(access.file(format), access.key ? { key: access.key } : {});
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `report-${runId}.${format}`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const m = report.metrics;
  // Model figures only where a model was asked: report.json counts the requests the endpoint received (0040); a
  // report written before that count existed is judged by its engine (the offline engine asks no model).
  const usesModel = m.modelRequests !== undefined ? m.modelRequests > 0 : report.engine !== 'offline';

  return (
    <ReportAccessContext.Provider value={access}>
      <OpenSourceContext.Provider value={setViewing}>
        {nav}
        <div className="page-head">
          <PageTitle title="Report">{report.question}</PageTitle>
          <div className="head-actions" role="group" aria-label="Download the report">
            {(['md', 'html', 'json', 'pdf'] as const).map((f) => (
              <button key={f} type="button" onClick={() => void download(f)}>
                Download .{f}
              </button>
            ))}
          </div>
        </div>
        {error && <Alert>{error}</Alert>}
        {tools}
        <div className="report-grid">
          <article className="report" aria-label="Report">
            {report.sections.map((section) => (
              <section key={section.id} className={`report-section kind-${section.kind}`} aria-labelledby={`sec-${section.id}`}>
                <h2 id={`sec-${section.id}`}>{section.title}</h2>
                {section.paragraphs.flatMap((p, pi) =>
                  paragraphBlocks(p.sentences).flatMap((block, bi) => [
                    <p key={`${pi}.${bi}`}>
                      {block.term && (
                        <>
                          <code className="term">{block.term}</code>:{' '}
                        </>
                      )}
                      {block.sentences.map((s, si) => (
                        <span key={si} className="sentence">
                          {s.text}
                          {citationsOf(report, s.evidenceIds).map((c) => (
                            <Citation key={c.number} data={c} />
                          ))}{' '}
                        </span>
                      ))}
                    </p>,
                    ...(block.code
                      ? [
                          <pre key={`${pi}.${bi}.code`} className="code">
                            <code>{block.code}</code>
                          </pre>,
                        ]
                      : []),
                  ]),
                )}
              </section>
            ))}

            <section aria-labelledby="claims-title">
              <h2 id="claims-title">Claims ({Object.keys(report.claims).length})</h2>
              <table className="claims-table stack">
                <thead>
                  <tr>
                    <th scope="col">Claim</th>
                    <th scope="col">Status</th>
                    <th scope="col">Sources</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(report.claims).map(([id, c]) => (
                    <tr key={id}>
                      <td data-label="Claim">{c.text}</td>
                      <td data-label="Status">
                        <span className={`status status-${c.status}`} title={STATUS_HELP[c.status]}>
                          {c.status}
                        </span>
                      </td>
                      <td data-label="Sources">
                        {citationsOf(report, c.evidenceIds).map((x) => (
                          <Citation key={x.number} data={x} />
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>

            <section aria-labelledby="contradictions-title">
              <h2 id="contradictions-title">Contradictions ({report.contradictions.length})</h2>
              {report.contradictions.length === 0 && <p className="muted">The sources did not contradict each other.</p>}
              <ul className="contradictions">
                {report.contradictions.map((c, i) => {
                  const [a, b] = c.claimIds.map((id) => report.claims[id]);
                  return (
                    <li key={i} className="contradiction">
                      <p className="kind">
                        <span className="tag">{c.kind}</span> {c.note}
                      </p>
                      <div className="sides">
                        {[a, b].map((side, j) => (
                          <blockquote key={j}>
                            <span className="visually-hidden">Side {j === 0 ? 'A' : 'B'}: </span>
                            {side?.text ?? c.claimIds[j]}{' '}
                            {side && citationsOf(report, side.evidenceIds).map((x) => <Citation key={x.number} data={x} />)}
                          </blockquote>
                        ))}
                      </div>
                    </li>
                  );
                })}
              </ul>
            </section>
          </article>

          <aside className="report-aside" aria-label="Sources and figures">
            <section aria-labelledby="verification-title" className="figures">
              <h2 id="verification-title">Verification</h2>
              <dl>
                <div>
                  <dt>Checks made</dt>
                  <dd data-figure="checked">{formatInt(v?.checked ?? 0)}</dd>
                </div>
                <div>
                  <dt>Sentences in the report</dt>
                  <dd data-figure="sentences">{v?.sentences == null ? '—' : formatInt(v.sentences)}</dd>
                </div>
                <div>
                  <dt>Supported by their cited passages</dt>
                  <dd data-figure="supported">{v?.supported == null ? '—' : formatInt(v.supported)}</dd>
                </div>
                {m.verification?.judgedByModel !== undefined && (
                  <div>
                    <dt>Judged by the model</dt>
                    <dd data-figure="judged-by-model">{formatInt(m.verification.judgedByModel)}</dd>
                  </div>
                )}
                <div>
                  <dt>Repair rounds</dt>
                  <dd>{formatInt(v?.rounds ?? 0)}</dd>
                </div>
                <div>
                  <dt>Iterations</dt>
                  <dd>{formatInt(m.iterations)}</dd>
                </div>
                <div>
                  <dt>Searches</dt>
                  <dd>{formatInt(m.searches)}</dd>
                </div>
                {usesModel && (
                  <>
                    <div>
                      <dt>Model requests</dt>
                      <dd data-figure="model-requests">{formatInt(m.modelRequests ?? m.llmCalls)}</dd>
                    </div>
                    <div>
                      <dt>Tokens</dt>
                      <dd>{formatInt(m.tokensIn + m.tokensOut)}</dd>
                    </div>
                    <div>
                      <dt>Cost</dt>
                      <dd>{formatUsd(m.costUsd)}</dd>
                    </div>
                  </>
                )}
                <div>
                  <dt>Wall time</dt>
                  <dd>{formatDuration(m.wallMs)}</dd>
                </div>
              </dl>
              <p className="muted small-print" data-figure-note>
                Every check of every round counts, a sentence checked again after a repair included; the report's sentences that cite
                nothing frame it and were checked against the question and its outline.
              </p>
              {!usesModel && <p className="muted small-print">No model was asked: no model requests, tokens or cost to show.</p>}
            </section>
            <section aria-labelledby="sources-title">
              <h2 id="sources-title">Sources ({sources.length})</h2>
              <ol className="sources">
                {sources.map(([id, s]) => (
                  <li key={id} value={s.number} data-source={s.number}>
                    <span className="source-title">
                      <button
                        type="button"
                        className="link-like"
                        aria-label={`Open source ${s.number}: ${s.title}`}
                        onClick={() => setViewing({ number: s.number, source: s, passages: passagesBySource.get(id) ?? [] })}
                      >
                        {s.title}
                      </button>
                    </span>
                    <span className="source-meta">{sourceMeta(s)}</span>
                    {isWebUrl(s.url) ? (
                      <a className="source-url" href={s.url} rel="noreferrer noopener" target="_blank">
                        {s.url}
                      </a>
                    ) : (
                      <span className="source-url">{s.url}</span>
                    )}
                  </li>
                ))}
              </ol>
            </section>
          </aside>
        </div>
        {viewing && (
          <SourceViewer
            key={`${viewing.number}:${viewing.passages.map((p) => p.evidenceId).join(',')}`}
            request={viewing}
            onClose={() => setViewing(null)}
          />
        )}
      </OpenSourceContext.Provider>
    </ReportAccessContext.Provider>
  );
}
