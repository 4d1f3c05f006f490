import { z } from 'zod';
import { EpistemicStatus } from '@dossier/contracts';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { unknownIdIssues } from './grounding';
import type { ReferenceCheck } from './role';
import type { RoleDefinition, InputSplit } from './role';
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

export const claimBuilderDefinition: RoleDefinition<ClaimBuilderInput, ClaimBuilderOutput, 'claimBuilder'> = {
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
};
