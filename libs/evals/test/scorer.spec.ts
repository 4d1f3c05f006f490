import { readdirSync } from 'node:fs';
import { splitSentences } from '@dossier/agents';
import type { ReportJson } from '@dossier/contracts';
import { offlineRoleAnswer, FakeOpenAIServer } from '@dossier/testing';
import { ROLES } from '@dossier/agents';
import {
  loadEvalSet,
  openAIJudgeFromEnv,
  overallScore,
  scoreQuestion,
  SETS_DIR,
  type EvalQuestion,
  type LoadedEvalSet,
  type QuestionScore,
} from '../src';
import { CorpusTexts, goldReport, reportOf, type CitedSpan } from './gold-reports';

/** A seeded generator (mulberry32), so the "random sentences" report is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const QUESTION: EvalQuestion = {
  id: 'q',
  question: 'How far did the lake fall, and why do figures differ?',
  keyPoints: [
    { fact: 'fell 4.2 m', phrasings: ['fell by 4.2 metres'], source: 'a.md' },
    { fact: 'fell 6.1 m', phrasings: ['fell by 6.1 metres'], source: 'b.md' },
  ],
  traps: [{ statement: 'fell 13.8 m', phrasings: ['fell by 13.8 metres'] }],
  sources: ['a.md', 'b.md'],
};

function span(text: string, source: string, excerpt = text): CitedSpan {
  return { text, source, excerpt, start: 0, end: excerpt.length };
}

describe('scoring one report', () => {
  it('reads recall, sources and citation support from the sentences and what they cite', async () => {
    const report = reportOf(QUESTION.question, [
      span('The water level fell by 4.2 metres between 2015 and 2024.', 'docs/a.md'),
      // Cites a passage that does not state its figure: the guard does not support it.
      span('The water level fell by 6.1 metres between 2015 and 2024.', 'c.md', 'The lake is deep.'),
    ]);
    const score = await scoreQuestion(QUESTION, report);
    expect(score.keyPointRecall).toBe(1);
    expect(score.keyPoints.map((k) => k.sentence)).toEqual([
      report.sections[0]!.paragraphs[0]!.sentences[0]!.text,
      report.sections[0]!.paragraphs[0]!.sentences[1]!.text,
    ]);
    // docs/a.md ends with /a.md: cited; b.md is not cited (the 6.1 sentence cites c.md).
    expect(score.sources).toEqual([
      { path: 'a.md', cited: true },
      { path: 'b.md', cited: false },
    ]);
    expect(score.sourceRecall).toBe(0.5);
    expect(score).toMatchObject({ citedSentences: 2, guardSupported: 1, citationSupport: 0.5, judgeSupport: null, trapHits: 0 });
  });

  it('reads a sentence after the term it is shown under, as the reader does (decision 0153)', async () => {
    const question: EvalQuestion = {
      id: 'q',
      question: 'How do I stash untracked files?',
      keyPoints: [{ fact: '-u stashes untracked files', phrasings: ['include-untracked + untracked files'], source: 'git-stash.md' }],
      traps: [],
      sources: ['git-stash.md'],
    };
    const report = reportOf(question.question, [
      span('When used with the push and save commands, all untracked files are also stashed.', 'git-stash.md'),
    ]);
    expect((await scoreQuestion(question, report)).keyPointRecall).toBe(0);
    report.sections[0]!.paragraphs[0]!.sentences[0]!.term = '-u, --include-untracked';
    expect((await scoreQuestion(question, report)).keyPointRecall).toBe(1);
  });

  it('a path that merely ends with the same letters is not the source ("data.md" is not "a.md")', async () => {
    const score = await scoreQuestion(QUESTION, reportOf(QUESTION.question, [span('The water level fell by 4.2 metres.', 'data.md')]));
    expect(score.sources[0]).toEqual({ path: 'a.md', cited: false });
  });

  it('counts traps in the body and framing, not in the disagreements section, and never reads the method section', async () => {
    const base = reportOf(QUESTION.question, [span('The lake fell by 13.8 metres, one source says.', 'a.md')]);
    const sentence = base.sections[0]!.paragraphs[0]!.sentences[0]!;
    const inKind = (kind: ReportJson['sections'][number]['kind']): ReportJson => ({
      ...base,
      sections: [{ id: 's', title: 'T', kind, paragraphs: [{ sentences: [sentence] }] }],
    });
    expect((await scoreQuestion(QUESTION, inKind('body'))).trapHits).toBe(1);
    expect((await scoreQuestion(QUESTION, inKind('framing'))).trapHits).toBe(1);
    expect((await scoreQuestion(QUESTION, inKind('contradictions'))).trapHits).toBe(0);
    const method = await scoreQuestion(QUESTION, inKind('method'));
    expect(method).toMatchObject({ trapHits: 0, words: 0, citedSentences: 0 });
  });

  it('checks each cited excerpt against its source text (excerpt-verbatim rate)', async () => {
    const report = reportOf(QUESTION.question, [span('It fell by 4.2 metres.', 'a.md'), span('It fell by 6.1 metres.', 'b.md')]);
    const score = await scoreQuestion(QUESTION, report, {
      sourceText: async (s) => (s.url.endsWith('a.md') ? 'It fell by 4.2 metres.' : 'Something else entirely.'),
    });
    expect(score).toMatchObject({ excerpts: 2, verbatimExcerpts: 1, excerptVerbatimRate: 0.5 });
  });
});

describe.each(readdirSync(SETS_DIR))('fixed reports over the shipped set %s', (name) => {
  let loaded: LoadedEvalSet;
  let texts: CorpusTexts;
  beforeAll(async () => {
    loaded = await loadEvalSet(name);
    texts = new CorpusTexts(loaded);
  });
  afterAll(() => loaded?.dispose());

  it('a report of the gold sentences finds every key point, cites every source, hits no trap, and is supported', async () => {
    const scores: QuestionScore[] = [];
    for (const q of loaded.set.questions) {
      scores.push(
        await scoreQuestion(q, await goldReport(texts, q), {
          sourceText: async (s) => texts.text(s.url.replace(/^corpus:\/\/eval\//, '')),
        }),
      );
    }
    const missed = scores.flatMap((s) => s.keyPoints.filter((k) => !k.found).map((k) => `${s.id}: ${k.fact}`));
    expect(missed).toEqual([]);
    expect(scores.flatMap((s) => s.traps.filter((t) => t.hit).map((t) => `${s.id}: ${t.statement} <- ${t.sentence}`))).toEqual([]);
    const overall = overallScore(scores);
    expect(overall).toMatchObject({ keyPointRecall: 1, sourceRecall: 1, trapHits: 0, excerptVerbatimRate: 1 });
    // Sentences quoted verbatim from their own excerpt: the guard supports (nearly) all of them. Not exactly all: it
    // reads a range broken by a line break in the passage ("42–50\nmillion m³", the panel PDF) as another unit.
    expect(overall.citationSupport).toBeGreaterThan(0.95);
  });

  it('a report stating every trap has every trap caught', async () => {
    for (const q of loaded.set.questions) {
      // Each trap stated in the words of each of its phrasings (the parts of an AND-group in one sentence).
      const spans = q.traps.flatMap((t) => t.phrasings.map((p) => span(`${p.split(' + ').join(', ')}.`, q.sources[0]!)));
      const score = await scoreQuestion(q, reportOf(q.question, spans));
      expect(score.traps.map((t) => t.hit)).toEqual(q.traps.map(() => true));
      expect(score.trapHits).toBe(q.traps.length);
    }
  });

  it('a report of random corpus sentences scores near 0', async () => {
    const random = seeded(13);
    const scores: QuestionScore[] = [];
    for (const q of loaded.set.questions) {
      const spans: CitedSpan[] = [];
      for (let i = 0; i < q.keyPoints.length * 2; i++) {
        const file = loaded.files[Math.floor(random() * loaded.files.length)]!;
        const text = await texts.text(file);
        const sentences = splitSentences(text);
        const s = sentences[Math.floor(random() * sentences.length)];
        if (s) spans.push({ text: s.text, source: file, excerpt: text.slice(s.start, s.end), start: s.start, end: s.end });
      }
      scores.push(await scoreQuestion(q, reportOf(q.question, spans)));
    }
    const overall = overallScore(scores);
    expect(overall.keyPointRecall).toBeLessThan(0.15);
    expect(overall.sourceRecall).toBeLessThan(0.3);
  });
});

/** A correct model: each role's offline answer to the input the engine echoed. */
const offlineAnswer = offlineRoleAnswer(ROLES);

describe('the judge: the verifier model through an OpenAI-compatible endpoint', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await new FakeOpenAIServer({ answer: offlineAnswer }).start();
  });
  afterAll(() => server?.stop());

  it('judges every cited sentence with the pinned verifier model and counts its calls and tokens apart from the run', async () => {
    const judge = openAIJudgeFromEnv({
      NODE_ENV: 'test',
      DOSSIER_LLM_TEST_ECHO: '1',
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_MODEL: 'fake-model',
      OPENAI_MODEL_VERIFIER: 'fake-judge',
      OPENAI_RETRY_BASE_MS: '100',
    });
    expect(judge.model).toBe('fake-judge');
    const report = reportOf(QUESTION.question, [
      span('The water level fell by 4.2 metres between 2015 and 2024.', 'a.md'),
      span('The water level rose by 9 metres in 1990.', 'b.md', 'The lake is deep and cold.'),
    ]);
    const score = await scoreQuestion(QUESTION, report, { judge });
    expect(score).toMatchObject({ citedSentences: 2, judgeSupported: 1, judgeSupport: 0.5 });
    expect(server.requests.map((r) => r.body.model)).toEqual(['fake-judge']);
    const overall = overallScore([score], judge);
    expect(overall).toMatchObject({ judgeCalls: 1, judgeSupport: 0.5, llmCalls: 0 });
    expect(overall.judgeTokensIn).toBe(server.counts.promptTokens);
    expect(overall.judgeTokensOut).toBe(server.counts.completionTokens);
  });
});
