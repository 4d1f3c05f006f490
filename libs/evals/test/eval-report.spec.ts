import {
  compareEvalReports,
  EvalReport,
  EvalReportError,
  evalHtml,
  evalJson,
  evalMarkdown,
  evalReport,
  failedQuestion,
  formatComparison,
  parseEvalReport,
  scoreQuestion,
  type EvalSet,
} from '../src';
import { reportOf } from './gold-reports';

const SET: EvalSet = {
  name: 'tiny',
  title: 'Tiny <b>set</b> & co',
  corpus: { dir: 'x' },
  questions: [
    {
      id: 'q01',
      question: 'Does <script>alert(1)</script> get escaped in "quotes"?',
      keyPoints: [
        { fact: 'it is <escaped>', phrasings: ['escaped'], source: 'a.md' },
        { fact: 'never run', phrasings: ['never run'], source: 'a.md' },
      ],
      traps: [{ statement: 'it runs', phrasings: ['script runs'] }],
      sources: ['a.md'],
    },
    {
      id: 'q02',
      question: 'A question whose run failed, for the record.',
      keyPoints: [
        { fact: 'a', phrasings: ['a'], source: 'a.md' },
        { fact: 'b', phrasings: ['b'], source: 'a.md' },
      ],
      traps: [{ statement: 't', phrasings: ['t'] }],
      sources: ['a.md'],
    },
  ],
};

async function report(found: boolean): Promise<EvalReport> {
  const text = found ? 'The <img src=x onerror=alert(1)> is escaped and the script runs.' : 'Nothing relevant.';
  const q1 = await scoreQuestion(
    SET.questions[0]!,
    reportOf(SET.questions[0]!.question, [{ text, source: 'a.md', excerpt: text, start: 0, end: text.length }]),
  );
  const q2 = failedQuestion(SET.questions[1]!, 'run 0b5c ended failed: <boom>', '0b5c6f0e-7d59-4a51-9a0e-2f3a4b5c6d7e', 1500);
  return evalReport(SET, { engine: 'offline', collection: 'eval-tiny', startedAt: new Date('2026-12-01T10:00:00Z') }, [q1, q2]);
}

describe('eval reports', () => {
  it('eval.json is valid under its schema and reads back as it was written', async () => {
    const r = await report(true);
    expect(parseEvalReport(evalJson(r), 'eval.json')).toEqual(r);
    expect(r.overall).toMatchObject({
      questions: 2,
      failed: 1,
      keyPointRecall: 0.25,
      keyPointsFound: 1,
      keyPoints: 4,
      trapHits: 1,
      questionsWithTrapHits: 1,
    });
  });

  it('eval.html escapes every text from the set and the reports', async () => {
    const html = evalHtml(await report(true));
    expect(html).not.toMatch(/<script>|<img|<b>set|<boom>|<escaped>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Tiny &lt;b&gt;set&lt;/b&gt; &amp; co');
    expect(html).toContain("default-src 'none'");
  });

  it('eval.md lists the overall metrics, each question, what was missed and which traps were hit', async () => {
    const md = evalMarkdown(await report(true));
    expect(md).toMatch(/\| key-point recall \| 0\.25 \|/);
    expect(md).toMatch(/- found: it is /);
    expect(md).toMatch(/- TRAP: it runs/);
    expect(md).toMatch(/\*\*Failed:\*\* run 0b5c ended failed/);
    expect(md).toMatch(/Citation support is checked by the deterministic guard only/);
  });

  it('compare gives B − A per metric and says which way is better', async () => {
    const a = await report(false);
    const b = await report(true);
    const diff = Object.fromEntries(compareEvalReports(a, b).map((d) => [d.metric.key, d]));
    expect(diff['keyPointRecall']).toMatchObject({ a: 0, b: 0.25, delta: 0.25, verdict: 'better' });
    expect(diff['trapHits']).toMatchObject({ a: 0, b: 1, delta: 1, verdict: 'worse' });
    expect(diff['judgeSupport']).toMatchObject({ delta: null, verdict: 'n/a' });
    const lines = formatComparison(a, b);
    expect(lines.find((l) => l.startsWith('key-point recall'))).toMatch(/0\.00\s+0\.25\s+\+0\.25\s+better/);
    expect(lines.find((l) => l.startsWith('trap hits'))).toMatch(/0\s+1\s+\+1\s+worse/);
    expect(lines.some((l) => l.startsWith('warning'))).toBe(false);
    expect(formatComparison(a, { ...b, engine: 'openai', judgeModel: 'm' })).toEqual(
      expect.arrayContaining(['warning: different engines (offline vs openai)', 'warning: different judge models (none vs m)']),
    );
  });

  it('refuses a file that is not an eval report, naming it', () => {
    expect(() => parseEvalReport('{"set": 1}', 'b.json')).toThrow(EvalReportError);
    expect(() => parseEvalReport('{"set": 1}', 'b.json')).toThrow(/^b\.json is not an eval report/);
    expect(() => parseEvalReport('nope', 'c.json')).toThrow(/^c\.json is not JSON/);
  });
});
