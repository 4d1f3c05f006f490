import type { SourceRecordRow } from '@dossier/db';
import { describeIntervention } from '../src/render/intervention-lines';

const ADDED = { type: 'add_question', question: 'How much water did irrigation take?' } as const;
const none: SourceRecordRow[] = [];

/** Issue 28: a question accepted at the last loop boundary is never researched, and the report says so. */
describe('an added question in the method section', () => {
  it('is flagged as not researched when research stopped at the boundary that accepted it', () => {
    // Applied by moderate of iteration 0 (the first), and research stopped there: one iteration finished.
    expect(describeIntervention(0, ADDED, none, { iterations: 1, stopReason: 'max_iterations' })).toBe(
      'question added after iteration 1: "How much water did irrigation take?" — not researched: research stopped (max iterations) before another iteration',
    );
  });

  it('is not flagged when the next iteration researched it', () => {
    expect(describeIntervention(0, ADDED, none, { iterations: 2, stopReason: 'max_iterations' })).toBe(
      'question added after iteration 1: "How much water did irrigation take?"',
    );
  });

  it('leaves other interventions as they were', () => {
    expect(describeIntervention(1, { type: 'narrow_scope', scope: 'after 1990' }, none, { iterations: 2, stopReason: 'converged' })).toBe(
      'scope narrowed after iteration 2: "after 1990"',
    );
  });
});
