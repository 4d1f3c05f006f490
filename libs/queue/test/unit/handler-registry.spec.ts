import { z } from 'zod';
import { NODES, NODE_NAMES, NODE_SERVICE, SERVICE_NAMES, nodesOfService, type NodeName } from '@dossier/contracts';
import { HandlerRegistryError } from '@dossier/errors';
import { buildHandlerRegistry, type FoundHandler } from '../../src/handler-registry';

const className = (node: NodeName) =>
  `${node.charAt(0).toUpperCase()}${node.slice(1).replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}Handler`;
const handler = (node: NodeName, name = className(node)): FoundHandler => ({
  node,
  className: name,
  instance: { node, name, execute: () => Promise.resolve({ result: {} }) },
});
const handlersFor = (nodes: readonly NodeName[]): FoundHandler[] => nodes.map((n) => handler(n));

/** Runs `fn`, expecting it to throw a HandlerRegistryError; returns it. */
function registryError(fn: () => unknown): HandlerRegistryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HandlerRegistryError);
    return err as HandlerRegistryError;
  }
  throw new Error('expected buildHandlerRegistry to throw');
}

describe('buildHandlerRegistry', () => {
  it('planner owns scope, perspectives, questions', () => {
    expect(nodesOfService('planner')).toEqual(['scope', 'perspectives', 'questions']);
  });

  it('all planner nodes → a map node → handler instance', () => {
    const found = handlersFor(nodesOfService('planner'));
    const map = buildHandlerRegistry(['planner'], found);
    expect([...map.keys()].sort()).toEqual(['perspectives', 'questions', 'scope']);
    for (const h of found) expect(map.get(h.node)).toBe(h.instance);
  });

  it('accepts handlers in any order', () => {
    const found = handlersFor(nodesOfService('planner')).reverse();
    expect(buildHandlerRegistry(['planner'], found).size).toBe(3);
  });

  it.each(SERVICE_NAMES.map((s) => [s]))('service %s with one handler per owned node → ok', (service) => {
    const map = buildHandlerRegistry([service], handlersFor(nodesOfService(service)));
    expect([...map.keys()].sort()).toEqual([...nodesOfService(service)].sort());
  });

  it('several services in one process → the union of their nodes', () => {
    const found = handlersFor([...nodesOfService('claims'), ...nodesOfService('writer')]);
    const map = buildHandlerRegistry(['claims', 'writer'], found);
    expect(map.size).toBe(nodesOfService('claims').length + nodesOfService('writer').length);
  });

  it('every service at once → every node', () => {
    const map = buildHandlerRegistry(SERVICE_NAMES, handlersFor(NODE_NAMES));
    expect([...map.keys()].sort()).toEqual([...NODE_NAMES].sort());
  });

  it.each(nodesOfService('planner').map((n) => [n]))('missing %s → error naming the node and the service', (missing) => {
    const found = handlersFor(nodesOfService('planner').filter((n) => n !== missing));
    const err = registryError(() => buildHandlerRegistry(['planner'], found));
    expect(err.message).toContain(missing);
    expect(err.message).toContain('planner');
    expect(err.message).toMatch(new RegExp(`no handler for node\\(s\\) ${missing}\\b`));
    expect(err.code).toBe('handler_registry_invalid');
    expect(err.retryable).toBe(false);
    expect(err.details).toEqual({ missing: [missing], services: ['planner'] });
  });

  it('no handlers at all → every owned node is named', () => {
    const err = registryError(() => buildHandlerRegistry(['searcher'], []));
    for (const n of ['search_plan', 'retrieve', 'source_policy', 'interview']) expect(err.message).toContain(n);
    expect(err.details).toEqual({ missing: ['search_plan', 'retrieve', 'source_policy', 'interview'], services: ['searcher'] });
  });

  it('two handlers for one node → error naming both class names', () => {
    const found = [...handlersFor(nodesOfService('planner')), handler('scope', 'ScopeHandlerV2')];
    const err = registryError(() => buildHandlerRegistry(['planner'], found));
    expect(err.message).toContain('ScopeHandler');
    expect(err.message).toContain('ScopeHandlerV2');
    expect(err.message).toMatch(/node scope has 2 handlers \(ScopeHandler, ScopeHandlerV2\)/);
    expect(err.message).not.toContain('no handler for node');
  });

  it('a handler for a node of another service → error naming the node, its class and owning service', () => {
    const found = [...handlersFor(nodesOfService('planner')), handler('retrieve', 'StrayRetrieveHandler')];
    const err = registryError(() => buildHandlerRegistry(['planner'], found));
    expect(NODE_SERVICE.retrieve).toBe('searcher');
    expect(err.message).toContain('StrayRetrieveHandler');
    expect(err.message).toContain('retrieve');
    expect(err.message).toContain('searcher');
    expect(err.message).toContain('does not host');
  });

  it('reports every problem at once', () => {
    const found = [handler('scope'), handler('scope', 'OtherScope'), handler('render', 'RenderHandler')];
    const err = registryError(() => buildHandlerRegistry(['planner'], found));
    expect(err.message).toContain('no handler for node(s) perspectives, questions');
    expect(err.message).toContain('OtherScope');
    expect(err.message).toContain('RenderHandler');
    expect(err.message).toContain('renderer');
  });

  it('a process hosting no service accepts no handler', () => {
    expect(buildHandlerRegistry([], []).size).toBe(0);
    const err = registryError(() => buildHandlerRegistry([], [handler('scope')]));
    expect(err.message).toContain('planner');
  });

  it('a provider marked for a node with no execute method → error naming its class', () => {
    const found = [...handlersFor(['perspectives', 'questions']), { node: 'scope' as const, className: 'HalfScopeHandler', instance: {} }];
    const err = registryError(() => buildHandlerRegistry(['planner'], found));
    expect(err.message).toContain('handler HalfScopeHandler of node scope has no execute method');
  });

  it("checks against the process's node table: an extended table's nodes are owned and need handlers", () => {
    const table = NODES.extend({
      echo: {
        label: 'Test echo',
        phase: 'research',
        description: 'a test node',
        service: 'planner',
        fanout: false,
        roles: [],
        result: z.strictObject({ n: z.int() }),
      },
    });
    const planner = handlersFor(nodesOfService('planner'));
    const err = registryError(() => buildHandlerRegistry(['planner'], planner, table as unknown as typeof NODES));
    expect(err.details).toEqual({ missing: ['echo'], services: ['planner'] });
    const echo = { ...handler('scope', 'EchoHandler'), node: 'echo' as NodeName };
    expect([...buildHandlerRegistry(['planner'], [...planner, echo], table as unknown as typeof NODES).keys()]).toContain('echo');
    // The core table knows no `echo`: a handler for it is refused, named.
    expect(registryError(() => buildHandlerRegistry(['planner'], [...planner, echo])).message).toContain(
      'handler EchoHandler is for node echo, which is not in the node table',
    );
  });
});
