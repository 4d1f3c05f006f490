import { useId, useState } from 'react';
import type { ReportJson } from '../../api/types';
import { sourceMeta } from '../../ui/format';
import { isWebUrl as isWeb, useOpenSource } from './source-viewer';

type Source = ReportJson['sources'][string];

export interface CitationData {
  number: number;
  source: Source;
  excerpts: { evidenceId: string; excerpt: string; start: number; end: number }[];
}

/**
 * `[n]` after a sentence. Hovering it with a mouse or focusing it shows the exact excerpt(s) the sentence rests
 * on and the source (title, link, authority, fetched date); Escape hides it. A click or a tap opens the source
 * viewer on those passages (a touch screen has no hover: the tap is how a phone reaches the excerpt).
 */
export function Citation({ data }: { data: CitationData }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const openSource = useOpenSource();
  const { source } = data;
  return (
    <span
      className="citation"
      onPointerEnter={(e) => e.pointerType === 'mouse' && setOpen(true)}
      onPointerLeave={(e) => e.pointerType === 'mouse' && setOpen(false)}
    >
      <button
        type="button"
        className="cite"
        data-citation={data.number}
        aria-describedby={open ? id : undefined}
        aria-label={`Source ${data.number}: ${source.title}`}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        onClick={() => {
          setOpen(false);
          openSource({
            number: data.number,
            source,
            passages: data.excerpts.map((x) => ({ evidenceId: x.evidenceId, start: x.start, end: x.end })),
          });
        }}
      >
        [{data.number}]
      </button>
      {open && (
        <span role="tooltip" id={id} className="tooltip">
          {data.excerpts.map((x) => (
            <q key={x.evidenceId} className="excerpt" data-evidence={x.evidenceId}>
              {x.excerpt}
            </q>
          ))}
          <span className="tooltip-source">
            <span className="tooltip-title">
              [{data.number}]{' '}
              {isWeb(source.url) ? (
                <a href={source.url} rel="noreferrer noopener" target="_blank">
                  {source.title}
                </a>
              ) : (
                source.title
              )}
            </span>
            <span className="tooltip-meta">{sourceMeta(source)}</span>
          </span>
        </span>
      )}
    </span>
  );
}

/** The citations of one sentence: its evidence grouped by source, in source-number order (as report.md and report.html number them). */
export function citationsOf(report: ReportJson, evidenceIds: string[]): CitationData[] {
  const byNumber = new Map<number, CitationData>();
  for (const evidenceId of new Set(evidenceIds)) {
    const evidence = report.evidence[evidenceId];
    const source = evidence ? report.sources[evidence.sourceId] : undefined;
    if (!evidence || !source) continue;
    const c = byNumber.get(source.number) ?? { number: source.number, source, excerpts: [] };
    c.excerpts.push({ evidenceId, excerpt: evidence.excerpt, start: evidence.start, end: evidence.end });
    byNumber.set(source.number, c);
  }
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}
