import { z } from 'zod';
import { EpistemicStatus } from '@dossier/contracts';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { contradictionBetween, prepareStatement } from '../offline/nlp/contradiction';
import { groupNearDuplicates } from '../offline/nlp/near-duplicates';
import { extractQuantities } from '../offline/nlp/quantities';
import { tokenize } from '../offline/nlp/tokens';
import { clip, topicPhrases } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { ReferenceCheck } from './role';
import type { AgentRole, InputSplit } from './role';
import { halves } from './split';
import { Id, text } from './schemas';

export const ClaimBuilderInput = z.strictObject({
  evidence: z.array(
    z.strictObject({
      id: Id,
      excerpt: text(20_000),
      statement: text(4000),
      questionId: Id.nullable(),
      /** Evidence from the same source (or independence cluster) counts once towards "established". */
      sourceId: Id.optional(),
    }),
  ),
});
export type ClaimBuilderInput = z.infer<typeof ClaimBuilderInput>;

export const BuiltClaim = z.strictObject({
  statement: text(4000),
  subject: z.string().max(400),
  status: EpistemicStatus,
  evidenceIds: z.array(Id).min(1),
  questionId: Id.nullable(),
});
export const ClaimBuilderOutput = z.strictObject({ claims: z.array(BuiltClaim) });
export type ClaimBuilderOutput = z.infer<typeof ClaimBuilderOutput>;

/** Statements this close (2-word-shingle Jaccard) say the same thing. */
export const CLAIM_MERGE_THRESHOLD = 0.6;
const HEDGES = new Set([
  'may',
  'might',
  'could',
  'possibly',
  'possible',
  'perhaps',
  'suggests',
  'suggest',
  'suggested',
  'likely',
  'unlikely',
  'potentially',
  'appears',
  'reportedly',
  'allegedly',
  'uncertain',
  'unclear',
  'estimated',
  'speculated',
]);
const INDEPENDENT_SOURCES_FOR_ESTABLISHED = 2;

/** Hedge words outside figures: the month in "27 May 1937" is no "may". */
function hedged(statement: string): boolean {
  let text = statement;
  for (const q of extractQuantities(statement)) text = text.slice(0, q.start) + ' '.repeat(q.end - q.start) + text.slice(q.end);
  return tokenize(text).some((t) => HEDGES.has(t));
}

function offline(input: ClaimBuilderInput): ClaimBuilderOutput {
  const evidence = input.evidence;
  const prepared = evidence.map((e) => prepareStatement(e.statement));
  // Groups hold positions in `evidence`.
  const groups: number[][] = [];
  for (const group of groupNearDuplicates(
    evidence.map((e, i) => ({ id: String(i), text: e.statement })),
    CLAIM_MERGE_THRESHOLD,
  )) {
    // Near-identical wording can still carry a different figure or polarity; those are separate claims.
    const [lead, ...rest] = group.map(Number);
    const agreeing = [lead];
    for (const i of rest) {
      if (contradictionBetween(prepared[lead], prepared[i])) groups.push([i]);
      else agreeing.push(i);
    }
    groups.push(agreeing);
  }
  groups.sort((a, b) => a[0] - b[0]);

  const claims: ClaimBuilderOutput['claims'] = groups.map((members) => {
    const lead = evidence[members[0]];
    const items = members.map((i) => evidence[i]);
    const ids = items.map((e) => e.id);
    const independent = new Set(items.map((e) => e.sourceId ?? e.id)).size;
    const status: z.infer<typeof EpistemicStatus> = hedged(lead.statement)
      ? 'speculative'
      : independent >= INDEPENDENT_SOURCES_FOR_ESTABLISHED
        ? 'established'
        : 'reported';
    return {
      statement: lead.statement,
      subject: clip(topicPhrases(lead.statement, 1)[0] ?? '', 400),
      status,
      evidenceIds: [...new Set(ids)],
      questionId: items.map((e) => e.questionId).find((q) => q !== null) ?? null,
    };
  });
  // Claims that contradict one another are both contested, whatever their support.
  const leads = groups.map((members) => prepared[members[0]]);
  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) {
      if (contradictionBetween(leads[i], leads[j])) {
        claims[i].status = 'contested';
        claims[j].status = 'contested';
      }
    }
  }
  return { claims };
}

function check(input: ClaimBuilderInput, output: ClaimBuilderOutput): ReferenceCheck<ClaimBuilderOutput> {
  const known = new Set(input.evidence.map((e) => e.id));
  const questions = new Set(input.evidence.flatMap((e) => (e.questionId ? [e.questionId] : [])));
  const issues = unknownIdIssues(
    output.claims.flatMap((c) => c.evidenceIds),
    known,
    'claims cite evidence',
  );
  issues.push(
    ...unknownIdIssues(
      output.claims.flatMap((c) => (c.questionId ? [c.questionId] : [])),
      questions,
      'claims name question',
    ),
  );
  let dropped = 0;
  const claims = output.claims.flatMap((c) => {
    const evidenceIds = c.evidenceIds.filter((id) => known.has(id));
    dropped += c.evidenceIds.length - evidenceIds.length;
    if (evidenceIds.length === 0) return [];
    const questionId = c.questionId !== null && !questions.has(c.questionId) ? null : c.questionId;
    if (questionId !== c.questionId) dropped++;
    return [{ ...c, evidenceIds, questionId }];
  });
  if (output.claims.length === 0 && input.evidence.length > 0)
    issues.push(`no claim was built from the ${input.evidence.length} evidence items`);
  return { issues, cleaned: claims.length > 0 ? { claims } : null, dropped };
}

/**
 * Evidence in two halves, evidence of one source kept together where it can be (its items corroborate each other); the
 * claims of both. A fact stated in both halves becomes two claims, which the claims step merges like repeats.
 */
function split(input: ClaimBuilderInput): InputSplit<ClaimBuilderInput, ClaimBuilderOutput> | null {
  const ordered = [...input.evidence].sort((a, b) => (a.sourceId ?? '').localeCompare(b.sourceId ?? ''));
  const parts = halves(ordered);
  if (!parts) return null;
  return {
    parts: [{ evidence: parts[0] }, { evidence: parts[1] }],
    join: ([a, b]) => ({ claims: [...a.claims, ...b.claims] }),
  };
}

export const claimBuilder: AgentRole<ClaimBuilderInput, ClaimBuilderOutput, 'claimBuilder'> = {
  name: 'claimBuilder',
  temperature: 0.1,
  input: ClaimBuilderInput,
  output: ClaimBuilderOutput,
  check,
  split,
  idle: (input) => (input.evidence.length === 0 ? { claims: [] } : null),
  prompt: (input) =>
    buildPrompt({
      persona: 'Claim Builder',
      task: 'Turn the evidence into atomic claims: one checkable statement each, with its subject, its epistemic status and the ids of every evidence item that supports it.',
      rules: [
        'A claim states one fact; evidence items that state the same fact become one claim citing all of them.',
        'status: established when at least two independent sources agree; speculative when the evidence hedges (may, might, suggests); contested when evidence disagrees; otherwise reported.',
        'subject is a short noun phrase naming what the claim is about.',
        'Never state more than the evidence says; keep figures, units and dates exactly as in the evidence.',
      ],
      output: ClaimBuilderOutput,
      data: [['evidence', listWithIds(input.evidence.map((e) => ({ id: e.id, text: e.excerpt })))]],
    }),
  offline,
};
