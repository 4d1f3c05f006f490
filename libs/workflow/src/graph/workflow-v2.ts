import { NODES } from '@dossier/contracts';
import { WORKFLOW_V1 } from './workflow-v1';
import { graphsOver } from './workflow-graph';

const { goto, fanout, defineGraph, nodesOf } = graphsOver(NODES);

/** One interview per analyst of the approved plan, each looping over its turns (decision 0024). */
const interviewEveryAnalyst = fanout('interview', 'reset', 'perspectives', 'perspectives');

/**
 * Version 2 (issue 14): version 1 plus the run's mode. `survey` runs exactly version 1's path; `interviews` goes from
 * the plan gate straight to the interviews; `hybrid` runs the survey loop, then the interviews. The interviews' evidence
 * then passes through claims, contradictions and coverage as one more research pass (`after: moderate`), and the
 * writing phase is version 1's.
 */
export const WORKFLOW_V2 = defineGraph({
  version: 2,
  start: WORKFLOW_V1.start,
  nodes: {
    ...nodesOf(WORKFLOW_V1),
    questions: {
      then: {
        kind: 'gate',
        gate: 'plan',
        approve: {
          kind: 'branch',
          cases: [{ when: { mode: ['interviews'] }, then: interviewEveryAnalyst }],
          otherwise: goto('search_plan', 'reset'),
        },
        reject: { to: 'perspectives', iteration: 'next' },
      },
    },
    // After the interviews' pass nothing is asked again: the writing starts.
    coverage: {
      then: { kind: 'branch', cases: [{ when: { ran: 'interview' }, then: goto('outline', 'reset') }], otherwise: goto('moderate') },
    },
    moderate: {
      then: {
        kind: 'research_loop',
        continue: goto('search_plan', 'next'),
        exit: { kind: 'branch', cases: [{ when: { mode: ['hybrid'] }, then: interviewEveryAnalyst }], otherwise: goto('outline', 'reset') },
      },
    },
    interview: { then: goto('claims', { after: 'moderate' }), loop: { closed: 'closed', turns: 'interviewTurns' } },
  },
});
