import { useEffect, useMemo, useState } from 'react';
import { api, apiBlob, ApiError, messageOf } from '../../api/client';
import type { ReportJson, RunView } from '../../api/types';
import { Link, paths } from '../../router';
import { Alert, Loading, PageTitle } from '../../ui/common';
import { formatDate, formatDuration, formatInt, formatUsd } from '../../ui/format';
import { RunNotFound } from '../live-run/not-found';
import { Citation, citationsOf } from './citation';

const STATUS_HELP: Record<string, string> = {
  established: 'several independent sources agree',
  reported: 'stated by a source, not confirmed by another',
  contested: 'sources disagree',
  speculative: 'hedged or forecast',
};

export function ReportScreen({ runId }: { runId: string }) {
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

  const sources = useMemo(() => (report ? Object.entries(report.sources).sort((a, b) => a[1].number - b[1].number) : []), [report]);

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

  const download = async (format: 'md' | 'html' | 'json' | 'pdf') => {
    try {
      const blob = await apiBlob(`/v1/runs/${encodeURIComponent(runId)}/report.${format}`);
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
  const v = run.progress?.verification;
  const m = report.metrics;

  return (
    <>
      <p className="eyebrow">
        <Link to={paths.run(runId)}>← Back to the run</Link> · <Link to={paths.audit(runId)}>Audit log</Link>
      </p>
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
      <div className="report-grid">
        <article className="report" aria-label="Report">
          {report.sections.map((section) => (
            <section key={section.id} className={`report-section kind-${section.kind}`} aria-labelledby={`sec-${section.id}`}>
              <h2 id={`sec-${section.id}`}>{section.title}</h2>
              {section.paragraphs.map((p, pi) => (
                <p key={pi}>
                  {p.sentences.map((s, si) => (
                    <span key={si} className="sentence">
                      {s.text}
                      {citationsOf(report, s.evidenceIds).map((c) => (
                        <Citation key={c.number} data={c} />
                      ))}{' '}
                    </span>
                  ))}
                </p>
              ))}
            </section>
          ))}

          <section aria-labelledby="claims-title">
            <h2 id="claims-title">Claims ({Object.keys(report.claims).length})</h2>
            <table className="claims-table">
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
                    <td>{c.text}</td>
                    <td>
                      <span className={`status status-${c.status}`} title={STATUS_HELP[c.status]}>
                        {c.status}
                      </span>
                    </td>
                    <td>
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
                <dt>Sentences checked</dt>
                <dd data-figure="checked">{formatInt(v?.checked ?? 0)}</dd>
              </div>
              <div>
                <dt>Supported</dt>
                <dd data-figure="supported">{formatInt(v?.supported ?? 0)}</dd>
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
              <div>
                <dt>Wall time</dt>
                <dd>{formatDuration(m.wallMs)}</dd>
              </div>
            </dl>
          </section>
          <section aria-labelledby="sources-title">
            <h2 id="sources-title">Sources ({sources.length})</h2>
            <ol className="sources">
              {sources.map(([id, s]) => (
                <li key={id} value={s.number} data-source={s.number}>
                  <span className="source-title">
                    {/^https?:\/\//i.test(s.url) ? (
                      <a href={s.url} rel="noreferrer noopener" target="_blank">
                        {s.title}
                      </a>
                    ) : (
                      s.title
                    )}
                  </span>
                  <span className="source-meta">
                    {s.authority ?? 'unknown'} · {s.origin ?? 'source'} · fetched {formatDate(s.fetchedAt)}
                  </span>
                  {!/^https?:\/\//i.test(s.url) && <span className="source-url">{s.url}</span>}
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </>
  );
}
