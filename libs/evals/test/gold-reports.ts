import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { splitSentences } from '@dossier/agents';
import type { ReportJson } from '@dossier/contracts';
import { extractBytes } from '@dossier/sources';
import { normalize, phrasingMatches, type EvalQuestion, type LoadedEvalSet } from '../src';

/** A report sentence with the excerpt it cites: a span of a corpus file's extracted text. */
export interface CitedSpan {
  text: string;
  /** Corpus-relative path. */
  source: string;
  excerpt: string;
  start: number;
  end: number;
}

/** The text the ingester stores for each corpus file (extracted once per file). */
export class CorpusTexts {
  private readonly cache = new Map<string, Promise<string>>();
  constructor(private readonly loaded: LoadedEvalSet) {}

  text(file: string): Promise<string> {
    let t = this.cache.get(file);
    if (!t) {
      t = readFile(path.join(this.loaded.corpusDir, file)).then(async (bytes) => (await extractBytes(bytes, file)).text);
      this.cache.set(file, t);
    }
    return t;
  }
}

/** A finished report of one body section made of these sentences, each citing its own excerpt. */
export function reportOf(question: string, spans: CitedSpan[], extra: Partial<Pick<ReportJson, 'sections'>> = {}): ReportJson {
  const files = [...new Set(spans.map((s) => s.source))];
  const sources = Object.fromEntries(
    files.map((f, i) => [
      `S${i + 1}`,
      {
        number: i + 1,
        url: `corpus://eval/${f}`,
        title: f,
        contentHash: `sha256:${String(i).padStart(64, '0')}`,
        fetchedAt: '2026-12-01T00:00:00.000Z',
      },
    ]),
  );
  const evidence = Object.fromEntries(
    spans.map((s, i) => [
      `E${i + 1}`,
      { sourceId: `S${files.indexOf(s.source) + 1}`, excerpt: s.excerpt, start: s.start, end: s.end, claimIds: [] },
    ]),
  );
  return {
    runId: '0b5c6f0e-7d59-4a51-9a0e-2f3a4b5c6d7e',
    question,
    status: 'completed',
    engine: 'offline',
    createdAt: '2026-12-01T00:00:00.000Z',
    sections: extra.sections ?? [
      {
        id: 'answer',
        title: 'Answer',
        kind: 'body',
        paragraphs: [{ sentences: spans.map((s, i) => ({ text: s.text, evidenceIds: [`E${i + 1}`] })) }],
      },
    ],
    evidence,
    claims: {},
    contradictions: [],
    sources,
    metrics: { iterations: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 1000, searches: 1, sourcesFetched: files.length },
  };
}

/** The first sentence of a file that states one of the phrasings (null when none does: the set drifted). */
export async function sentenceStating(texts: CorpusTexts, file: string, phrasings: readonly string[]): Promise<CitedSpan | null> {
  const text = await texts.text(file);
  for (const s of splitSentences(text)) {
    if (phrasings.some((p) => phrasingMatches(p, normalize(s.text)))) {
      return { text: s.text, source: file, excerpt: text.slice(s.start, s.end), start: s.start, end: s.end };
    }
  }
  return null;
}

/**
 * The gold report of a question: for each key point, the sentence of its source that states it; for each source no
 * key point cites, its first sentence that states no trap. A key point no single sentence of its source states gets none (the drift test
 * reports it; phrasing parts may span sentences of a whole file).
 */
export async function goldReport(texts: CorpusTexts, q: EvalQuestion): Promise<ReportJson> {
  const spans: CitedSpan[] = [];
  for (const k of q.keyPoints) {
    const s = await sentenceStating(texts, k.source, k.phrasings);
    if (s) spans.push(s);
  }
  for (const file of q.sources.filter((f) => !spans.some((s) => s.source === f))) {
    const text = await texts.text(file);
    // The first sentence of the file that states none of the question's traps (a source may hold the claim disputed).
    const first = splitSentences(text).find((s) => !q.traps.some((t) => t.phrasings.some((p) => phrasingMatches(p, normalize(s.text)))));
    if (first)
      spans.push({ text: first.text, source: file, excerpt: text.slice(first.start, first.end), start: first.start, end: first.end });
  }
  return reportOf(q.question, spans);
}
