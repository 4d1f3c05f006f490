import { NODES, type CoreNodeRows, type NodeName, type NodeTable, type ServiceName } from '@dossier/contracts';
import { HandlerRegistryError } from '@dossier/errors';

export interface FoundHandler {
  node: NodeName;
  className: string;
  instance: object;
}

/**
 * Checks the discovered handlers against the nodes the hosted services own (in the process's node table):
 * every owned node has exactly one handler, and no handler serves a node this process does not host.
 * Returns node → handler.
 */
export function buildHandlerRegistry(
  services: readonly ServiceName[],
  found: readonly FoundHandler[],
  nodes: NodeTable<CoreNodeRows> = NODES,
): Map<NodeName, object> {
  const owned = services.flatMap((s) => nodes.nodesOf(s));
  const byNode = new Map<NodeName, FoundHandler[]>();
  for (const h of found) byNode.set(h.node, [...(byNode.get(h.node) ?? []), h]);

  const problems: string[] = [];
  const missing = owned.filter((n) => !byNode.has(n));
  if (missing.length > 0) problems.push(`no handler for node(s) ${missing.join(', ')}`);
  for (const [node, list] of byNode) {
    if (!nodes.has(node)) {
      problems.push(`handler ${list[0]?.className} is for node ${node}, which is not in the node table`);
      continue;
    }
    for (const h of list) {
      if (typeof (h.instance as { execute?: unknown }).execute !== 'function')
        problems.push(`handler ${h.className} of node ${node} has no execute method`);
    }
    if (list.length > 1) problems.push(`node ${node} has ${list.length} handlers (${list.map((h) => h.className).join(', ')})`);
    if (!owned.includes(node))
      problems.push(
        `handler ${list[0]?.className} is for node ${node}, owned by service ${nodes.service[node]}, which this process does not host`,
      );
  }
  if (problems.length > 0) {
    throw new HandlerRegistryError(`Cannot start service(s) ${services.join(', ')}: ${problems.join('; ')}`, {
      details: { missing, services },
    });
  }
  return new Map([...byNode].map(([node, list]) => [node, list[0]!.instance]));
}
