import type { EngineCompletion } from '../engine/engine';
import { countTokens } from '../openai/tokens';
import type { AgentRole } from '../roles/role';
import type { SectionWriterInput, SectionWriterOutput } from '../roles/section-writer';

type Complete = <I, O>(role: AgentRole<I, O>, input: I) => Promise<EngineCompletion<O>>;

/** A summary of what earlier parts wrote is kept to about this share of the batch budget. */
const SUMMARY_SHARE = 0.25;

function evidenceTokens(input: SectionWriterInput): number {
  return input.evidence.reduce((n, e) => n + countTokens(e.excerpt) + 4, 0);
}

/** True for a Section Writer call whose evidence does not fit in one prompt's budget. */
export function needsBatches(role: AgentRole<unknown, unknown>, input: unknown, budgetTokens: number): boolean {
  if (role.name !== 'sectionWriter') return false;
  const i = input as SectionWriterInput;
  return i.continuation === undefined && i.claims.length > 1 && evidenceTokens(i) > budgetTokens;
}

/**
 * Claims that share evidence, as groups in order of their first claim (claims keep their order inside a group): a
 * group goes in one part, so no excerpt is sent twice in one step (decision 0036).
 */
function sharingEvidence(claims: SectionWriterInput['claims']): SectionWriterInput['claims'][] {
  const parent = claims.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  claims.forEach((claim, i) => {
    for (const id of claim.evidenceIds) {
      const j = owner.get(id);
      if (j === undefined) owner.set(id, i);
      else parent[Math.max(find(i), find(j))] = Math.min(find(i), find(j));
    }
  });
  const groups = new Map<number, SectionWriterInput['claims']>();
  claims.forEach((claim, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), claim]));
  return [...groups.values()];
}

/**
 * Claims grouped into parts whose evidence stays within the budget (a claim never splits). Claims that share evidence
 * stay in one part unless together they exceed the budget (then, and only then, a shared excerpt goes to two parts).
 */
export function planBatches(input: SectionWriterInput, budgetTokens: number): SectionWriterInput['claims'][] {
  const excerpt = new Map(input.evidence.map((e) => [e.id, e.excerpt]));
  const batches: SectionWriterInput['claims'][] = [];
  let current: SectionWriterInput['claims'] = [];
  let used = 0;
  let seen = new Set<string>();
  const costOf = (claims: SectionWriterInput['claims'], known: Set<string>): number => {
    const ids = new Set(claims.flatMap((c) => c.evidenceIds).filter((id) => !known.has(id) && excerpt.has(id)));
    return claims.reduce((n, c) => n + countTokens(c.statement), 0) + [...ids].reduce((n, id) => n + countTokens(excerpt.get(id)!) + 4, 0);
  };
  const add = (claims: SectionWriterInput['claims']): void => {
    let cost = costOf(claims, seen);
    if (current.length > 0 && used + cost > budgetTokens) {
      batches.push(current);
      current = [];
      used = 0;
      seen = new Set();
      cost = costOf(claims, seen);
    }
    current.push(...claims);
    used += cost;
    for (const c of claims) for (const id of c.evidenceIds) seen.add(id);
  };
  for (const group of sharingEvidence(input.claims)) {
    if (costOf(group, new Set()) <= budgetTokens) add(group);
    else for (const claim of group) add([claim]);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** What the parts so far wrote, newest kept when it is too long (the model needs the end to continue from). */
function summarise(paragraphs: SectionWriterOutput['paragraphs'], capTokens: number): string {
  const sentences = paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
  const kept: string[] = [];
  let used = 0;
  for (let i = sentences.length - 1; i >= 0; i--) {
    const t = countTokens(sentences[i]!);
    if (used + t > capTokens) break;
    kept.unshift(sentences[i]!);
    used += t;
  }
  const dropped = sentences.length - kept.length;
  return [dropped > 0 ? `(${dropped} earlier sentences not shown)` : '', ...kept].filter(Boolean).join('\n');
}

/**
 * Long-context drafting (after STORM/Seed-style writers): the section's claims are drafted in parts that each fit
 * the budget; each part sees a summary of the parts before and is told not to repeat it; the last closes the section.
 */
export async function draftSectionInBatches<I, O>(
  role: AgentRole<I, O>,
  input: I,
  budgetTokens: number,
  complete: Complete,
): Promise<EngineCompletion<O>> {
  const whole = input as unknown as SectionWriterInput;
  const batches = planBatches(whole, budgetTokens);
  const paragraphs: SectionWriterOutput['paragraphs'] = [];
  const total = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
  let model = '';
  for (const [index, claims] of batches.entries()) {
    const ids = new Set(claims.flatMap((c) => c.evidenceIds));
    const part: SectionWriterInput = {
      section: whole.section,
      claims,
      evidence: whole.evidence.filter((e) => ids.has(e.id)),
      ...(whole.feedback ? { feedback: whole.feedback } : {}),
      ...(whole.contested ? { contested: whole.contested } : {}),
      continuation: {
        part: index + 1,
        parts: batches.length,
        writtenSoFar: summarise(paragraphs, Math.floor(budgetTokens * SUMMARY_SHARE)),
      },
    };
    const done = await complete(role, part as unknown as I);
    const out = done.output as unknown as SectionWriterOutput;
    paragraphs.push(...out.paragraphs);
    total.tokensIn += done.tokensIn;
    total.tokensOut += done.tokensOut;
    total.costUsd += done.costUsd;
    model = done.model;
  }
  return { output: { paragraphs } as unknown as O, model, ...total };
}
