import { NODES } from '@dossier/contracts';
import { graphsOver, type IterationRule } from './workflow-graph';

const { goto, fanout, defineGraph } = graphsOver(NODES);

/** Sections are drafted once per approved outline and verified once per repair round. */
const verifyAllSections = (iteration: IterationRule) => fanout('verify', iteration, 'outline', 'sections');

/** The workflow of docs/architecture.md §3, version 1. A run keeps the version it started with. */
export const WORKFLOW_V1 = defineGraph({
  version: 1,
  start: { to: 'scope', iteration: 'reset' },
  nodes: {
    scope: { then: goto('perspectives') },
    perspectives: { then: goto('questions') },
    questions: {
      then: { kind: 'gate', gate: 'plan', approve: goto('search_plan', 'reset'), reject: { to: 'perspectives', iteration: 'next' } },
    },
    search_plan: { then: fanout('retrieve', 'same', 'search_plan', 'queries') },
    retrieve: { then: goto('source_policy') },
    source_policy: { then: fanout('extract', 'same', 'source_policy', 'sources') },
    extract: { then: goto('claims') },
    claims: { then: goto('contradictions') },
    contradictions: { then: goto('coverage') },
    coverage: { then: goto('moderate') },
    moderate: { then: { kind: 'research_loop', continue: goto('search_plan', 'next'), exit: goto('outline', 'reset') } },
    outline: {
      then: {
        kind: 'gate',
        gate: 'outline',
        approve: fanout('draft', 'reset', 'outline', 'sections'),
        reject: { to: 'outline', iteration: 'next' },
      },
    },
    draft: { then: verifyAllSections('reset') },
    verify: { then: { kind: 'repair_loop', repair: goto('repair'), exit: goto('frame', 'reset') } },
    repair: { then: verifyAllSections('next') },
    frame: { then: { kind: 'gate', gate: 'publish', approve: goto('render', 'reset'), reject: { to: 'frame', iteration: 'next' } } },
    render: { then: { kind: 'end' } },
  },
});
