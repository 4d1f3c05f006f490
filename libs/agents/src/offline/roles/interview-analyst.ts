import { questionParts } from '../question-parts';
import { clip, focusItems, stemSet } from '../topics';
import { InterviewAnalystInput, InterviewAnalystOutput } from '../../roles/interview-analyst';

const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((w) => b.has(w)).length;

/**
 * Offline: the first question takes up the open question closest to the analyst's focus (hybrid) or asks about the
 * focus itself; each later one asks about the focus topic the answers so far cover least (the gap). The analyst stops
 * when no focus topic is left unasked or the next turn would be the last.
 */
export function interviewAnalystOffline(input: InterviewAnalystInput): InterviewAnalystOutput {
  const focus = stemSet(`${input.analyst.focus} ${input.analyst.role}`);
  // The subject as the question writes it ("the decline of Lake Varen's water level"), not a lower-cased key phrase:
  // an open question the analyst leaves is named in the report (decision 0105 leaves out one that lower-cases a name).
  const anchor = clip(questionParts(input.question).focus, 200);
  const topics = focusItems(input.analyst.focus).slice(0, Math.max(3, input.turns));
  const asked = input.transcript.map((t) => stemSet(`${t.question} ${t.answer.join(' ')}`));
  const said = new Set(asked.flatMap((s) => [...s]));
  const gaps = topics.filter((t) => [...stemSet(t)].some((w) => !said.has(w)));
  const lastTurn = input.turn + 1 >= input.turns;
  if (input.turn === 0) {
    const open = input.openQuestions
      .map((q, order) => ({ ...q, order, score: overlap(stemSet(q.text), focus) }))
      .sort((a, b) => b.score - a.score || a.order - b.order)[0];
    if (open) return { question: clip(open.text, 2000), openQuestionId: open.id, last: lastTurn };
    const topic = topics[0] ?? anchor;
    return {
      question: clip(`What do the sources say about ${topic} regarding ${anchor}?`, 2000),
      openQuestionId: null,
      last: lastTurn || topics.length === 0,
    };
  }
  const gap = gaps.find((g) => !input.transcript.some((t) => t.question.includes(g)));
  if (!gap) {
    return {
      question: clip(`What figures or dates do the sources give on ${anchor} that bear on ${input.analyst.focus}?`, 2000),
      openQuestionId: null,
      last: true,
    };
  }
  return {
    question: clip(`What do the sources report on ${gap} regarding ${anchor}?`, 2000),
    openQuestionId: null,
    last: lastTurn || gaps.length <= 1,
  };
}
