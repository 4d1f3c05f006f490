import { useEffect, useState } from 'react';
import { api, ApiError, messageOf } from '../../api/client';
import type { AuditEntry, AuditLogView } from '../../api/types';
import { Link, paths } from '../../router';
import { Alert, Loading, PageTitle } from '../../ui/common';
import { formatDateTime } from '../../ui/format';
import { RunNotFound } from '../live-run/not-found';

interface ListDiff {
  added: Record<string, unknown>[];
  removed: Record<string, unknown>[];
  changed: { id: string; before: Record<string, unknown>; after: Record<string, unknown> }[];
}

const label = (item: Record<string, unknown>) => String(item['name'] ?? item['text'] ?? item['title'] ?? '');
const fields = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} “${String(v)}”`)
    .join(', ');

function DiffList({ what, diff }: { what: string; diff: ListDiff }) {
  const rows = [
    ...diff.added.map((x) => `Added ${what}: ${label(x)}`),
    ...diff.removed.map((x) => `Removed ${what}: ${label(x)}`),
    ...diff.changed.map((c) => `Changed ${what}: ${fields(c.before)} → ${fields(c.after)}`),
  ];
  return rows.length === 0 ? null : (
    <ul className="diff">
      {rows.map((r, i) => (
        <li key={i} className={r.startsWith('Added') ? 'diff-add' : r.startsWith('Removed') ? 'diff-del' : 'diff-mod'}>
          {r}
        </li>
      ))}
    </ul>
  );
}

/** A row's payload in words where it has a known shape (edits show their diff), else as JSON. */
function Payload({ entry }: { entry: AuditEntry }) {
  const p = entry.payload as Record<string, unknown> | null;
  if (entry.kind === 'plan_edited' && p) {
    const diff = p['diff'] as { perspectives: ListDiff; questions: ListDiff };
    return (
      <>
        <DiffList what="analyst" diff={diff.perspectives} />
        <DiffList what="question" diff={diff.questions} />
      </>
    );
  }
  if (entry.kind === 'outline_edited' && p) {
    const diff = p['diff'] as { before: { title: string }[]; after: { title: string }[] };
    return (
      <p className="diff">
        Outline before: {diff.before.map((s) => s.title).join(' · ')}
        <br />
        Outline after: {diff.after.map((s) => s.title).join(' · ')}
      </p>
    );
  }
  if (p === null || (typeof p === 'object' && Object.keys(p).length === 0)) return <span className="muted">—</span>;
  const text = JSON.stringify(p, null, 2);
  return text.length <= 120 ? (
    <code className="payload-inline">{JSON.stringify(p)}</code>
  ) : (
    <details>
      <summary>Details</summary>
      <pre>{text}</pre>
    </details>
  );
}

/** The run's hash-chained audit log, verified by the server when read. */
export function AuditScreen({ runId }: { runId: string }) {
  const [log, setLog] = useState<AuditLogView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    api<AuditLogView>('GET', `/v1/runs/${encodeURIComponent(runId)}/audit`)
      .then(setLog)
      .catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setMissing(true);
        else setError(messageOf(err));
      });
  }, [runId]);

  if (missing) return <RunNotFound runId={runId} />;
  if (error) return <Alert>{error}</Alert>;
  if (!log) return <Loading what="the audit log" />;
  const v = log.verification;
  return (
    <>
      <p className="eyebrow">
        <Link to={paths.run(runId)}>← Back to the run</Link>
      </p>
      <PageTitle title="Audit log">Audit log</PageTitle>
      {v.ok ? (
        <Alert kind="success">Chain verified: all {v.rows} entries are intact (each hash covers the entry and the one before it).</Alert>
      ) : (
        <Alert>
          Chain broken at entry {v.firstBadSeq} ({v.reason.replaceAll('_', ' ')}): that entry or one after it was altered or removed.
        </Alert>
      )}
      <table className="audit-table stack">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col">Who</th>
            <th scope="col">Details</th>
            <th scope="col">Hash</th>
          </tr>
        </thead>
        <tbody>
          {log.events.map((e) => (
            <tr key={e.seq} data-audit-kind={e.kind}>
              <td data-label="#">{e.seq}</td>
              <td data-label="When">{formatDateTime(e.createdAt)}</td>
              <td data-label="What">{e.kind.replaceAll('_', ' ')}</td>
              <td data-label="Who">{e.actor}</td>
              <td data-label="Details">
                <Payload entry={e} />
              </td>
              <td data-label="Hash">
                <code title={e.hash}>{e.hash.slice(0, 10)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
