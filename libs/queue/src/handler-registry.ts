import { NODE_SERVICE, NodeName, nodesOfService, type ServiceName } from '@dossier/contracts';
import { HandlerRegistryError } from '@dossier/errors';

export interface FoundHandler {
  node: NodeName;
  className: string;
  instance: object;
}

/**
 * Checks the discovered handlers against the nodes the hosted services own: every owned node has exactly
 * one handler, and no handler serves a node this process does not host. Returns node → handler.
 */
export function buildHandlerRegistry(services: readonly ServiceName[], found: readonly FoundHandler[]): Map<NodeName, object> {
  const owned = services.flatMap((s) => nodesOfService(s));
  const byNode = new Map<NodeName, FoundHandler[]>();
  for (const h of found) byNode.set(h.node, [...(byNode.get(h.node) ?? []), h]);

  const problems: string[] = [];
  const missing = owned.filter((n) => !byNode.has(n));
  if (missing.length > 0) problems.push(`no handler for node(s) ${missing.join(', ')}`);
  for (const [node, list] of byNode) {
    if (list.length > 1) problems.push(`node ${node} has ${list.length} handlers (${list.map((h) => h.className).join(', ')})`);
    if (!owned.includes(node))
      problems.push(
        `handler ${list[0]?.className} is for node ${node}, owned by service ${NODE_SERVICE[node]}, which this process does not host`,
      );
  }
  if (problems.length > 0) {
    throw new HandlerRegistryError(`Cannot start service(s) ${services.join(', ')}: ${problems.join('; ')}`, {
      details: { missing, services },
    });
  }
  return new Map([...byNode].map(([node, list]) => [node, list[0]!.instance]));
}
