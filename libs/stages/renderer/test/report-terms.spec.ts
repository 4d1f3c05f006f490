import { renderHtml, renderMarkdown } from '@dossier/render';
import type { EvidenceRow } from '@dossier/db';
import { buildReport, type ReportInputs } from '../src/render/report-builder';

/*
 * A sentence quoted from a manual's description of an option or a sub-command is shown under that term (decision 0153):
 * "When used with the push and save commands, all untracked files are also stashed …" does not say it is -u's.
 */
const PAGE = [
  'git-stash - Stash the changes in a dirty working directory away',
  'OPTIONS',
  '-u',
  '--include-untracked',
  'When used with the push and save commands, all untracked files are also stashed and then cleaned up with git clean.',
  'When used with the show command, show the untracked files in the stash entry as part of the diff.',
  'apply [--index] [-q|--quiet] [<`stash`>]',
  'Like pop, but do not remove the state from the stash list.',
  'DISCUSSION',
  'A stash entry is represented as a commit whose tree records the state of the working directory.',
].join('\n\n');

function evidence(id: string, excerpt: string): EvidenceRow {
  const start = PAGE.indexOf(excerpt);
  if (start < 0) throw new Error(`not on the page: ${excerpt}`);
  return {
    id,
    tenantId: 't',
    runId: 'r',
    snapshotId: 'page',
    questionId: null,
    iteration: 0,
    excerpt,
    start,
    end: start + excerpt.length,
    statement: excerpt,
    confidence: 1,
  };
}

const ROWS = [
  evidence('e-u', 'When used with the push and save commands, all untracked files are also stashed and then cleaned up with git clean.'),
  evidence('e-show', 'When used with the show command, show the untracked files in the stash entry as part of the diff.'),
  evidence('e-apply', 'Like pop, but do not remove the state from the stash list.'),
  evidence('e-prose', 'A stash entry is represented as a commit whose tree records the state of the working directory.'),
];

function inputs(sentences: { text: string; evidenceIds: string[] }[], text: string | null = PAGE): ReportInputs {
  return {
    run: {
      id: 'r',
      question: 'How do I stash untracked files?',
      status: 'completed',
      engine: 'offline',
      createdAt: new Date(0),
      stopReason: null,
      providers: ['corpus'],
    },
    intro: [],
    conclusion: [],
    sections: [{ sectionId: 's1', title: 'Stashing untracked files', paragraphs: [{ sentences }] }],
    claims: [],
    contradictions: [],
    evidence: ROWS,
    snapshots: [
      {
        id: 'page',
        url: 'corpus://git/git-stash.html',
        title: 'git-stash',
        contentHash: 'h',
        fetchedAt: new Date(0),
        ...(text ? { text } : {}),
      },
    ],
    records: [],
    openQuestions: [],
    metrics: { iterations: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0, searches: 0, sourcesFetched: 0 },
    verification: { rounds: 0 },
  };
}

const quoting = (id: string) => ({ text: ROWS.find((r) => r.id === id)!.excerpt, evidenceIds: [id] });

describe('a sentence under the term it describes (decision 0153)', () => {
  it('report.json carries the term of every cited passage that stands under one, and none for prose', () => {
    const report = buildReport(inputs(['e-u', 'e-show', 'e-apply', 'e-prose'].map(quoting)));
    const body = report.sections.find((s) => s.kind === 'body')!;
    expect(body.paragraphs[0]!.sentences.map((s) => s.term ?? null)).toEqual([
      '-u, --include-untracked',
      '-u, --include-untracked',
      'apply [--index] [-q|--quiet] [<`stash`>]',
      null,
    ]);
    // Each cited passage carries its term too, for tools that read claims and evidence (the report lint, decision 0154).
    expect(Object.values(report.evidence).map((e) => e.term ?? null)).toEqual([
      '-u, --include-untracked',
      '-u, --include-untracked',
      'apply [--index] [-q|--quiet] [<`stash`>]',
      null,
    ]);
  });

  it('no term when the cited passages stand under different terms, or the source text is not at hand', () => {
    const mixed = buildReport(inputs([{ text: 'Untracked files and apply.', evidenceIds: ['e-u', 'e-apply'] }]));
    expect(mixed.sections.find((s) => s.kind === 'body')!.paragraphs[0]!.sentences[0]!.term).toBeUndefined();
    const textless = buildReport(inputs([quoting('e-u')], null));
    expect(textless.sections.find((s) => s.kind === 'body')!.paragraphs[0]!.sentences[0]!.term).toBeUndefined();
  });

  it("two paragraphs in a row quoting one term's description are one, the term shown once", () => {
    const report = buildReport({
      ...inputs([]),
      sections: [
        {
          sectionId: 's1',
          title: 'Stashing untracked files',
          paragraphs: [
            { sentences: [quoting('e-prose'), quoting('e-u')] },
            { sentences: [quoting('e-show')] },
            { sentences: [quoting('e-apply')] },
          ],
        },
      ],
    });
    const body = report.sections.find((s) => s.kind === 'body')!;
    expect(body.paragraphs.map((p) => p.sentences.map((s) => s.term ?? null))).toEqual([
      [null, '-u, --include-untracked', '-u, --include-untracked'],
      ['apply [--index] [-q|--quiet] [<`stash`>]'],
    ]);
  });

  it('markdown and html lead each term’s sentences with it, in blocks of their own, the term escaped', () => {
    const report = buildReport(inputs(['e-u', 'e-show', 'e-apply', 'e-prose'].map(quoting)));
    const md = renderMarkdown(report, { evidenceAppendix: false });
    const body = md.slice(md.indexOf('## Stashing untracked files'), md.indexOf('## Sources'));
    expect(body.split('\n\n').slice(1, 4)).toEqual([
      '`-u, --include-untracked`: When used with the push and save commands, all untracked files are also stashed and then cleaned up with git clean. [1] When used with the show command, show the untracked files in the stash entry as part of the diff. [1]',
      // The term's own backtick cannot close its code span.
      '``apply [--index] [-q|--quiet] [<`stash`>]``: Like pop, but do not remove the state from the stash list. [1]',
      'A stash entry is represented as a commit whose tree records the state of the working directory. [1]',
    ]);
    const html = renderHtml(report);
    expect(html).toContain('<p><code class="term">apply [--index] [-q|--quiet] [&lt;`stash`&gt;]</code>: Like pop, but do not remove');
    expect(html).toMatch(/<p>A stash entry is represented/);
  });
});
