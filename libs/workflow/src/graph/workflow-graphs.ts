import { NODES, type CoreNodeRows, type NodeTable } from '@dossier/contracts';
import { UnknownWorkflowVersionError } from '@dossier/errors';
import { WorkflowGraphError, type WorkflowGraph } from './workflow-graph';
import { WORKFLOW_V1 } from './workflow-v1';
import { WORKFLOW_V2 } from './workflow-v2';

/* eslint-disable @typescript-eslint/no-explicit-any -- tables and graphs of different rows, checked at run time below */
type AnyNodeTable = NodeTable<any>;
type AnyWorkflowGraph = WorkflowGraph<any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * The graph versions a process knows, over its node table. A run stores the version it started on and finishes
 * on it; new runs start on `current`. The engine's code is typed by the core table; a table extended with more
 * nodes (a test's) is erased to it here, the one place where that happens: every row shared with the core table is
 * the same object, so what the engine reads of a core node is exactly what the types say.
 */
export class WorkflowGraphs {
  readonly table: NodeTable<CoreNodeRows>;
  readonly current: number;
  private readonly byVersion: ReadonlyMap<number, WorkflowGraph>;

  constructor(table: AnyNodeTable, graphs: readonly AnyWorkflowGraph[], current?: number) {
    const byVersion = new Map<number, WorkflowGraph>();
    for (const graph of graphs) {
      if (byVersion.has(graph.version)) throw new WorkflowGraphError(`workflow version ${graph.version} is declared twice`);
      for (const node of graph.table.names) {
        if (table.rows[node] !== graph.table.rows[node]) {
          throw new WorkflowGraphError(`workflow version ${graph.version} declares node ${node} differently from the engine's node table`);
        }
      }
      byVersion.set(graph.version, graph as WorkflowGraph);
    }
    for (const node of NODES.names) {
      if (table.rows[node] !== NODES.rows[node])
        throw new WorkflowGraphError(`the engine's node table must extend the core table (node ${node})`);
    }
    this.table = table as unknown as NodeTable<CoreNodeRows>;
    this.current = current ?? Math.max(...byVersion.keys());
    if (!byVersion.has(this.current)) throw new WorkflowGraphError(`the current workflow version ${this.current} is not declared`);
    this.byVersion = byVersion;
  }

  /** The graph a run started on; a run started on version N finishes on N. */
  get(version: number, runId?: string): WorkflowGraph {
    const graph = this.byVersion.get(version);
    if (!graph) throw new UnknownWorkflowVersionError(`Unknown workflow version ${version}`, runId ? { runId } : {});
    return graph;
  }

  get versions(): number[] {
    return [...this.byVersion.keys()].sort((a, b) => a - b);
  }
}

/** The workflow this code base runs: the core node table and every graph version still in use. */
export const WORKFLOWS = new WorkflowGraphs(NODES, [WORKFLOW_V1, WORKFLOW_V2]);
export const CURRENT_WORKFLOW_VERSION = WORKFLOWS.current;

export function graphFor(version: number): WorkflowGraph {
  return WORKFLOWS.get(version);
}
