import { z } from 'zod';
import { EpistemicStatus } from '@dossier/contracts';
import { contradictionBetween, prepareStatement } from '../nlp/contradiction';
import { groupNearDuplicates } from '../nlp/near-duplicates';
import { extractQuantities } from '../nlp/quantities';
import { tokenize } from '../nlp/tokens';
import { clip, topicPhrases } from '../topics';
import { ClaimBuilderInput, ClaimBuilderOutput } from '../../roles/claim-builder';

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

export function claimBuilderOffline(input: ClaimBuilderInput): ClaimBuilderOutput {
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
