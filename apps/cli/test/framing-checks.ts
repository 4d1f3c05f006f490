import type { ReportJson } from '@dossier/contracts';
import { templateQuestion } from '@dossier/agents';
import { sql } from '@dossier/testing';

/*
 * What a report must do as an answer (issue 13, decision 0037), asserted the same way on survey, interviews and hybrid
 * runs: the introduction states the main findings, each cited and verified like the body; the conclusion names what
 * stays open; no contested position is stated outside "Where the sources disagree". The matching here is the test's
 * own (words and figures), not the engine's.
 */

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.filter((w) => w.length > 2 && !/\d/.test(w)) ?? [],
  );
const figures = (text: string) => new Set(text.match(/\d+(?:\.\d+)?/g) ?? []);

/** A sentence states a claim when it has most of the claim's words and every figure it gives. */
export function states(sentence: string, claim: string): boolean {
  const own = words(claim);
  const mine = words(sentence);
  const shared = [...own].filter((w) => mine.has(w)).length;
  const numbers = figures(sentence);
  return own.size > 0 && shared >= 0.75 * own.size && [...figures(claim)].every((n) => numbers.has(n));
}

export function sentencesOf(r: ReportJson, kind: ReportJson['sections'][number]['kind'] | 'introduction' | 'conclusion') {
  const sections =
    kind === 'introduction' || kind === 'conclusion' ? r.sections.filter((s) => s.id === kind) : r.sections.filter((s) => s.kind === kind);
  return sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => ({ ...x, section: s.title }))));
}

/**
 * The positions of the run's contradictions that the body, or a finding of the introduction or the conclusion, states.
 * (The conclusion's uncited sentence that names the disputed points as open is not a finding.)
 */
export function contestedInBody(r: ReportJson): { claim: string; sentence: string; section: string }[] {
  const sides = [...new Set(r.contradictions.flatMap((c) => c.claimIds))].map((id) => r.claims[id]!.text);
  const findings = [...sentencesOf(r, 'introduction'), ...sentencesOf(r, 'conclusion')].filter((s) => s.evidenceIds.length > 0);
  const body = [...sentencesOf(r, 'body'), ...findings];
  return sides.flatMap((claim) => body.filter((s) => states(s.text, claim)).map((s) => ({ claim, sentence: s.text, section: s.section })));
}

/**
 * The introduction states findings, each a cited sentence of a body section, verified by the guard and the judge in
 * the frame step; the conclusion repeats no body sentence, names the open questions and, when the report shows
 * disagreements, says they stay open; framing sentences cite nothing.
 */
export async function expectAnswerFramed(r: ReportJson, dbUrl: string): Promise<void> {
  const intro = sentencesOf(r, 'introduction');
  const findings = intro.filter((s) => s.evidenceIds.length > 0);
  // When the sources dispute what the question asks, the answer in brief is the finding of each disputed clause and
  // that clause's section gives none (decision 0142: the demo stated one side of the irrigation dispute); otherwise
  // the sections' findings follow.
  const briefLeads = intro.some((s) => /^In brief, (?:the sources disagree|the sources are divided)/.test(s.text));
  expect(findings.length).toBeGreaterThanOrEqual(briefLeads ? 0 : 2);
  const body = new Set(sentencesOf(r, 'body').map((s) => s.text));
  for (const f of findings) expect({ finding: f.text, inBody: body.has(f.text) }).toEqual({ finding: f.text, inBody: true });
  expect(intro[0]!.text).toContain(r.question);

  const [frame] = await sql<{
    verification: { checks: { part: string; text: string; evidenceIds: string[]; judge: string | null; verdict: string }[] };
  }>(dbUrl, 'SELECT verification FROM report_frames WHERE run_id = $1 ORDER BY revision DESC LIMIT 1', [r.runId]);
  const checked = frame!.verification.checks.filter((c) => c.part === 'introduction' && c.evidenceIds.length > 0);
  for (const f of findings) {
    const check = checked.find((c) => c.text === f.text);
    // Checked against its passages by the judge, not waved through as framing.
    expect({ finding: f.text, judge: check?.judge, verdict: check?.verdict }).toEqual({
      finding: f.text,
      judge: 'supported',
      verdict: 'supported',
    });
  }

  const conclusion = sentencesOf(r, 'conclusion');
  // The conclusion repeats no body sentence (decision 0089): it says what stays open.
  expect(conclusion.filter((s) => body.has(s.text)).map((s) => s.text)).toEqual([]);
  const closing = conclusion.filter((s) => s.evidenceIds.length === 0).map((s) => s.text);
  const asKey = (q: string) =>
    q
      .trim()
      .toLowerCase()
      .replace(/[?.!\s]+$/, '');
  const answered = new Set([r.question, ...r.sections.filter((s) => s.kind === 'body').map((s) => s.title)].map(asKey));
  const names = [...r.question.matchAll(/(?<=\S\s+)\p{Lu}[\p{L}'’-]+/gu)].map((m) => m[0].replace(/['’]s$/, ''));
  const writesNameInLowerCase = (q: string) => names.some((n) => new RegExp(String.raw`\b${n.toLowerCase()}\b`).test(q) && !q.includes(n));
  // A question two analysts both asked is one open question.
  const open = (
    await sql<{ text: string }>(
      dbUrl,
      `SELECT q.text FROM research_questions q WHERE q.run_id = $1 AND q.status IN ('open', 'partial')
         AND (q.parent_id IS NULL OR q.id IN (SELECT question_id FROM interview_turns WHERE run_id = $1))
       ORDER BY q.iteration, q.priority DESC, q.text`,
      [r.runId],
    )
  )
    .filter((q, i, all) => all.findIndex((o) => o.text.trim().toLowerCase() === q.text.trim().toLowerCase()) === i)
    // Not the report's own question, nor a question a section answers under its heading (decision 0096), nor one of the
    // planner's template angles (decision 0166).
    .filter((q) => !answered.has(asKey(q.text)) && !templateQuestion(q.text));
  // Nor does the conclusion name a template.
  for (const t of closing) expect([...t.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((q) => templateQuestion(q))).toEqual([]);
  // No question of the run writes a name of the report's question in lower case, as a template's key words did: the
  // report would leave it out of its open questions (decision 0105), so none is asked that way (0120).
  expect(open.map((q) => q.text).filter(writesNameInLowerCase)).toEqual([]);
  if (open.length > 0) {
    const named = closing.find((t) => t.startsWith('The sources found do not settle'));
    expect(named).toBeDefined();
    expect(named).toContain(open.length === 1 ? 'this question' : `these ${open.length} questions`);
    // Up to four are named by their text.
    expect(open.filter((q) => named!.includes(`"${q.text.replace(/"/g, "'")}"`)).length).toBe(Math.min(4, open.length));
  }
  const disagreements = r.sections.find((s) => s.kind === 'contradictions');
  if (disagreements) {
    const n = disagreements.paragraphs.length;
    const named = closing.find((t) => t.startsWith('The sources disagree on'));
    expect(named).toMatch(
      new RegExp(`^The sources disagree on ${n === 1 ? 'one point' : `${n} points`}\\b.*leaves open.*"Where the sources disagree"`),
    );
    // Naming a disputed point takes no side: no position's figures.
    const sideFigures = disagreements.paragraphs.flatMap((p) => p.sentences.flatMap((s) => [...figures(s.text)]));
    const naming = figures(named!.replace(/^The sources disagree on \d+ points/, ''));
    for (const f of sideFigures) expect(naming.has(f)).toBe(false);
  }
  if (open.length === 0 && !disagreements) expect(closing.length).toBeGreaterThan(0);
}
