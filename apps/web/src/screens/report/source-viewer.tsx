import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { api, messageOf } from '../../api/client';
import type { ReportJson } from '../../api/types';
import { Alert } from '../../ui/common';
import { formatDate } from '../../ui/format';

type Source = ReportJson['sources'][string];

/** A passage of the source the report rests on: its evidence id and offsets in the snapshot's text. */
export interface CitedPassage {
  evidenceId: string;
  start: number;
  end: number;
}

export interface SourceRequest {
  number: number;
  source: Source;
  passages: CitedPassage[];
}

/**
 * Where the report's files and its sources' text come from: the run's own routes with the signed-in key, or a share
 * link's routes with its token (docs/decisions/0051).
 */
export interface ReportAccess {
  file: (format: 'md' | 'html' | 'json' | 'pdf') => string;
  source: (contentHash: string) => string;
  /** The share token, sent instead of the stored key. */
  key?: string;
}
export const ReportAccessContext = createContext<ReportAccess>({
  file: () => '',
  source: (hash) => `/v1/sources/${encodeURIComponent(hash)}`,
});

/** How a citation or a source in the list asks the report screen to open the viewer. */
export const OpenSourceContext = createContext<(request: SourceRequest) => void>(() => undefined);
export const useOpenSource = () => useContext(OpenSourceContext);

interface SourceText {
  id: string;
  title: string;
  url: string;
  text: string;
}

export const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** The text cut at the passages' edges: plain runs and highlighted runs, in order (overlapping passages merged). */
export function segmentsOf(text: string, passages: CitedPassage[]): { text: string; mark: string | null }[] {
  const ranges = passages
    .filter((p) => p.start >= 0 && p.end <= text.length && p.end > p.start)
    .sort((a, b) => a.start - b.start)
    .reduce<{ start: number; end: number; id: string }[]>((acc, p) => {
      const last = acc.at(-1);
      if (last && p.start <= last.end) last.end = Math.max(last.end, p.end);
      else acc.push({ start: p.start, end: p.end, id: p.evidenceId });
      return acc;
    }, []);
  const out: { text: string; mark: string | null }[] = [];
  let at = 0;
  for (const r of ranges) {
    if (r.start > at) out.push({ text: text.slice(at, r.start), mark: null });
    out.push({ text: text.slice(r.start, r.end), mark: r.id });
    at = r.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: null });
  return out;
}

/**
 * The stored snapshot of a source, as the run read it: its text with the cited passages highlighted and the
 * first scrolled into view, its title, kind, authority, fetch date and (for web sources) the original URL.
 * A modal <dialog>: Escape and the Close button close it, and focus returns to what opened it.
 */
export function SourceViewer({ request, onClose }: { request: SourceRequest; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [loaded, setLoaded] = useState<SourceText | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { source, passages, number } = request;
  const access = useContext(ReportAccessContext);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  useEffect(() => {
    const ctl = new AbortController();
    api<SourceText>('GET', access.source(source.contentHash), undefined, { signal: ctl.signal, ...(access.key ? { key: access.key } : {}) })
      .then(setLoaded)
      .catch((err: unknown) => !ctl.signal.aborted && setError(messageOf(err)));
    return () => ctl.abort();
  }, [source.contentHash, access]);

  useEffect(() => {
    if (!loaded) return;
    dialog.current?.querySelector('mark')?.scrollIntoView({ block: 'center' });
  }, [loaded]);

  const titleId = `source-${number}-title`;
  const segments = loaded ? segmentsOf(loaded.text, passages) : [];
  return (
    <dialog ref={dialog} className="source-viewer" aria-labelledby={titleId} onClose={onClose} data-source-viewer={number}>
      <header className="viewer-head">
        <div>
          <h2 id={titleId}>
            [{number}] {source.title}
          </h2>
          <p className="viewer-meta">
            <span className="tag">{source.origin ?? 'source'}</span> <span className="tag">authority: {source.authority ?? 'unknown'}</span>{' '}
            fetched {formatDate(source.fetchedAt)}
          </p>
          <p className="viewer-url">
            {isWebUrl(source.url) ? (
              <a href={source.url} rel="noreferrer noopener" target="_blank">
                Open the original: {source.url}
              </a>
            ) : (
              <>
                Stored document: <code>{source.url}</code>
              </>
            )}
          </p>
        </div>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      {passages.length > 0 && (
        <p className="muted viewer-note">
          {passages.length === 1 ? 'The cited passage is highlighted.' : `The ${passages.length} cited passages are highlighted.`}
        </p>
      )}
      {error && <Alert>{error}</Alert>}
      {!loaded && !error && (
        <p className="muted" role="status">
          Loading the source text…
        </p>
      )}
      {loaded && (
        <div className="source-text" tabIndex={0} aria-label={`Text of source ${number}`}>
          {segments.map((s, i) =>
            s.mark ? (
              <mark key={i} data-evidence={s.mark}>
                {s.text}
              </mark>
            ) : (
              <span key={i}>{s.text}</span>
            ),
          )}
        </div>
      )}
    </dialog>
  );
}
