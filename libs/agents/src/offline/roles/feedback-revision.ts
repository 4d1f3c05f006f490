import { clip } from '../topics';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import type { FramerInput, FramerOutput } from '../../roles/framer-schemas';

/**
 * What the offline engine can do with a reviewer's feedback at the publish gate (a model reads it as instructions in
 * data): lead the conclusion with the findings the feedback asks about, and say in the introduction that this
 * revision answers it. Order among equally relevant findings is kept.
 */
export function reviseForFeedback(input: FramerInput, output: FramerOutput): FramerOutput {
  const feedback = input.feedback ? normalizeWhitespace(input.feedback) : '';
  if (!feedback) return output;
  const asked = statementStems(feedback);
  const relevance = (text: string) => [...statementStems(text)].filter((s) => asked.has(s)).length;
  // Findings are reordered; what stays open (uncited framing) still closes the conclusion.
  const conclusion = [
    ...output.conclusion
      .filter((s) => s.evidenceIds.length > 0)
      .map((s, i) => ({ s, i, r: relevance(s.text) }))
      .sort((a, b) => b.r - a.r || a.i - b.i)
      .map((x) => x.s),
    ...output.conclusion.filter((s) => s.evidenceIds.length === 0),
  ];
  const note = { text: clip(`This revision answers the reviewer's request: "${feedback.replace(/"/g, "'")}".`, 4000), evidenceIds: [] };
  return { introduction: [...output.introduction.slice(0, 7), note], conclusion };
}
