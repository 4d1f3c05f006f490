import type { NodeRows, NodeTable } from '@dossier/contracts';
import type { Transition, WorkflowGraph } from './workflow-graph';

/* eslint-disable @typescript-eslint/no-explicit-any -- describes graphs over any node table (the core one, a test's) */
type AnyGraph = WorkflowGraph<any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

const cell = (text: string): string => text.replaceAll('|', '\\|');

/**
 * The node table as a Markdown table (docs/architecture.md §3 is generated from it): every node of the graph
 * version in table order, with its phase, service, whether it fans out, its agent roles and what it produces.
 */
export function nodeTableMarkdown(graph: AnyGraph): string {
  const table = graph.table as NodeTable<NodeRows>;
  const listed = new Set(Object.keys(graph.nodes));
  const rows = table.names
    .filter((n) => listed.has(n))
    .map((n) => {
      const r = table.rows[n]!;
      const loop = (graph.nodes as Record<string, { loop?: unknown } | undefined>)[n]?.loop ? ', a step per turn' : '';
      const fan = r.fanout ? `fan-out${loop}` : '—';
      const roles = r.roles.length > 0 ? r.roles.map((x) => `\`${x}\``).join(', ') : '—';
      return `| ${r.phase} | \`${n}\` | ${cell(r.label)} | ${r.service} | ${fan} | ${roles} | ${cell(r.description)} |`;
    });
  return [
    '| phase | node | label | service | fan-out | agent roles | what it produces |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/**
 * The graph version as a Mermaid flowchart: a box per node (a fan-out node as a double box), a diamond per gate,
 * an edge per transition labelled with what decides it.
 */
export function mermaidDiagram(graph: AnyGraph): string {
  const lines = ['flowchart TD'];
  const table = graph.table as NodeTable<NodeRows>;
  const listed = Object.keys(graph.nodes);
  const label = (n: string) => table.rows[n]!.label.replaceAll('"', "'");
  for (const n of table.names.filter((x) => listed.includes(x))) {
    lines.push(table.rows[n]!.fanout ? `  ${n}[["${label(n)}"]]` : `  ${n}["${label(n)}"]`);
  }
  lines.push('  start(("start")) --> ' + graph.start.to);
  let ends = 0;
  const edge = (from: string, to: string, text?: string): void => {
    lines.push(text ? `  ${from} -->|${text.replaceAll('|', '/')}| ${to}` : `  ${from} --> ${to}`);
  };
  const walk = (from: string, t: Transition<any>, text?: string): void => {
    switch (t.kind) {
      case 'goto':
        return edge(from, t.goto.to, text);
      case 'fanout':
        return edge(from, t.goto.to, [text, `one per ${t.countFrom.field}`].filter(Boolean).join(': '));
      case 'gate': {
        const gate = `gate_${t.gate}`;
        lines.push(`  ${gate}{"${t.gate} gate"}`);
        edge(from, gate, text);
        walk(gate, t.approve, 'approve');
        return edge(gate, t.reject.to, 'reject');
      }
      case 'research_loop':
        walk(from, t.continue, 'another iteration');
        return walk(from, t.exit, 'research done');
      case 'repair_loop':
        walk(from, t.repair, 'sentences failing');
        return walk(from, t.exit, 'all pass or rounds used');
      case 'branch':
        for (const c of t.cases) walk(from, c.then, 'mode' in c.when ? `mode ${c.when.mode.join('/')}` : `after ${c.when.ran}`);
        return walk(from, t.otherwise, 'otherwise');
      case 'end': {
        const end = `end${ends++}`;
        lines.push(`  ${end}(("end"))`);
        return edge(from, end, text);
      }
    }
  };
  for (const n of listed) {
    const spec = (graph.nodes as Record<string, { then: Transition<any>; loop?: { closed: string } }>)[n]!;
    if (spec.loop) edge(n, n, `next turn until ${spec.loop.closed}`);
    walk(n, spec.then);
  }
  return lines.join('\n');
}
