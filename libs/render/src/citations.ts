import type { ReportJson } from '@dossier/contracts';
import { InvalidReportError } from './errors';
import { naturalCompare } from './natural-order';

type ReportSource = ReportJson['sources'][string];
type ReportEvidence = ReportJson['evidence'][string];
type ReportSentence = ReportJson['sections'][number]['paragraphs'][number]['sentences'][number];

export interface CitedExcerpt {
  evidenceId: string;
  excerpt: string;
}

/** One `[N]` after a sentence: a source, and the excerpts of it that the sentence cites. */
export interface Citation {
  number: number;
  sourceId: string;
  source: ReportSource;
  excerpts: CitedExcerpt[];
}

/** A cited excerpt with the number of its source, for the evidence appendix. */
export interface CitedEvidence extends CitedExcerpt {
  number: number;
}

export interface CitationIndex {
  /** The sentence's citations, one per source, ascending by source number. */
  citationsOf(sentence: ReportSentence): Citation[];
  /** Every source cited anywhere in the report, once, ascending by number. */
  citedSources: { sourceId: string; source: ReportSource }[];
  /** Every evidence item cited anywhere in the report, once, in natural id order (`E2` before `E10`). */
  citedEvidence: CitedEvidence[];
}

/**
 * Resolves sentence → evidence → source once for all renderers, so Markdown and HTML cannot disagree on
 * numbering. Writers cite evidence, readers see sources: two excerpts of the same source in one sentence
 * are one `[N]`. Meant for a report that passed `validateReport`; a dangling id still fails loudly.
 */
export function indexCitations(report: ReportJson): CitationIndex {
  const citationsOf = (sentence: ReportSentence): Citation[] => {
    const byNumber = new Map<number, Citation>();
    for (const evidenceId of new Set(sentence.evidenceIds)) {
      const { evidence, source } = resolve(report, evidenceId);
      let citation = byNumber.get(source.number);
      if (!citation) {
        citation = { number: source.number, sourceId: evidence.sourceId, source, excerpts: [] };
        byNumber.set(source.number, citation);
      }
      citation.excerpts.push({ evidenceId, excerpt: evidence.excerpt });
    }
    return [...byNumber.values()].sort((a, b) => a.number - b.number);
  };

  const evidenceIds = new Set<string>();
  for (const section of report.sections) {
    for (const paragraph of section.paragraphs) {
      for (const sentence of paragraph.sentences) sentence.evidenceIds.forEach((id) => evidenceIds.add(id));
    }
  }
  for (const interview of report.interviews ?? []) {
    for (const turn of interview.turns) for (const sentence of turn.answer) sentence.evidenceIds.forEach((id) => evidenceIds.add(id));
  }
  const citedEvidence: CitedEvidence[] = [];
  const sources = new Map<string, ReportSource>();
  for (const evidenceId of [...evidenceIds].sort(naturalCompare)) {
    const { evidence, source } = resolve(report, evidenceId);
    citedEvidence.push({ evidenceId, excerpt: evidence.excerpt, number: source.number });
    sources.set(evidence.sourceId, source);
  }
  const citedSources = [...sources].map(([sourceId, source]) => ({ sourceId, source })).sort((a, b) => a.source.number - b.source.number);

  return { citationsOf, citedSources, citedEvidence };
}

function resolve(report: ReportJson, evidenceId: string): { evidence: ReportEvidence; source: ReportSource } {
  const evidence = report.evidence[evidenceId];
  if (!evidence) {
    throw new InvalidReportError([{ path: 'evidence', message: `unknown evidence id ${evidenceId}` }], report.runId);
  }
  const source = report.sources[evidence.sourceId];
  if (!source) {
    throw new InvalidReportError([{ path: `evidence.${evidenceId}`, message: `unknown source ${evidence.sourceId}` }], report.runId);
  }
  return { evidence, source };
}
