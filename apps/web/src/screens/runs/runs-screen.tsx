import { useEffect, useState } from 'react';
import { api, messageOf } from '../../api/client';
import type { RunList } from '../../api/types';
import { useSession } from '../../auth';
import { Link, paths } from '../../router';
import { Alert, Loading, PageTitle, StatusBadge } from '../../ui/common';
import { formatDateTime, formatInt, formatUsd, STATUS_LABEL } from '../../ui/format';

export const RUNS_PAGE_SIZE = 10;
const STATUSES = ['queued', 'running', 'awaiting_approval', 'completed', 'failed', 'cancelled'] as const;

/** The tenant's runs, newest first, a page at a time (the API's keyset cursor; earlier cursors kept for "Newer"). */
export function RunsScreen() {
  const { me } = useSession();
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<RunList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cursor = cursors.at(-1) ?? null;

  useEffect(() => {
    const ctl = new AbortController();
    setPage(null);
    setError(null);
    const q = new URLSearchParams({ limit: String(RUNS_PAGE_SIZE) });
    if (status) q.set('status', status);
    if (query) q.set('q', query);
    if (cursor) q.set('cursor', cursor);
    api<RunList>('GET', `/v1/runs?${q.toString()}`, undefined, { signal: ctl.signal })
      .then(setPage)
      .catch((err: unknown) => !ctl.signal.aborted && setError(messageOf(err)));
    return () => ctl.abort();
  }, [status, query, cursor]);
  // Typing searches after a pause, from the first page.
  useEffect(() => {
    const t = setTimeout(() => {
      if (search.trim() !== query) {
        setQuery(search.trim());
        setCursors([null]);
      }
    }, 300);
    return () => clearTimeout(t);
  }, [search, query]);

  const pageNumber = cursors.length;
  return (
    <>
      <div className="page-head">
        <PageTitle title="Runs">Runs</PageTitle>
        {me.canWrite && (
          <Link to={paths.newRun()} className="button primary">
            New run
          </Link>
        )}
      </div>
      <div className="toolbar">
        <label htmlFor="run-search">Search</label>
        <input
          id="run-search"
          type="search"
          value={search}
          maxLength={200}
          placeholder="Words of the question"
          onChange={(e) => setSearch(e.target.value)}
        />
        <label htmlFor="status-filter">Status</label>
        <select
          id="status-filter"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setCursors([null]);
          }}
        >
          <option value="">All</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </div>
      {error && <Alert>{error}</Alert>}
      {!page && !error && <Loading what="runs" />}
      {page && page.items.length === 0 && (
        <p className="empty">
          {query ? `No run asks about “${query}”` : 'No runs'}
          {status ? ` with status ${STATUS_LABEL[status]}` : ''}
          {query ? '.' : ' yet.'}
        </p>
      )}
      {page && page.items.length > 0 && (
        <table className="runs-table stack">
          <caption className="visually-hidden">Runs, newest first, page {pageNumber}</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Question</th>
              <th scope="col">Engine</th>
              <th scope="col">Started</th>
              <th scope="col" className="num">
                Cost
              </th>
              <th scope="col" className="num">
                Tokens
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((run) => (
              <tr key={run.id} data-run-id={run.id}>
                <td data-label="Status">
                  <StatusBadge status={run.status} />
                </td>
                <td className="question-cell" data-label="Question">
                  <Link to={paths.run(run.id)}>{run.question}</Link>
                </td>
                <td data-label="Engine">{String(run.options['engine'] ?? 'offline')}</td>
                <td data-label="Started">{formatDateTime(run.createdAt)}</td>
                {/* An offline run calls no model: no cost or tokens to show. */}
                <td className="num" data-label="Cost">
                  {run.options['engine'] === 'openai' ? formatUsd(run.usage.costUsd) : '—'}
                </td>
                <td className="num" data-label="Tokens">
                  {run.options['engine'] === 'openai' ? formatInt(run.usage.tokensIn + run.usage.tokensOut) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages of runs">
        <button type="button" onClick={() => setCursors((c) => c.slice(0, -1))} disabled={cursors.length <= 1}>
          Newer
        </button>
        <span aria-live="polite">Page {pageNumber}</span>
        <button type="button" onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor])} disabled={!page?.nextCursor}>
          Older
        </button>
      </nav>
    </>
  );
}
