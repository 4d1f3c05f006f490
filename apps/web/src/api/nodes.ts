import { useEffect, useState } from 'react';
import { api } from './client';
import type { NodeList, NodeView } from './types';

let table: Promise<Map<string, NodeView>> | null = null;

/** The workflow's node table (`GET /v1/nodes`, declared once in libs/contracts), fetched once per page load. */
function loadNodes(): Promise<Map<string, NodeView>> {
  table ??= api<NodeList>('GET', '/v1/nodes').then(
    (list) => new Map(list.items.map((n) => [n.name, n])),
    (err: unknown) => {
      table = null; // a later screen asks again
      throw err;
    },
  );
  return table;
}

/** The nodes by name; empty until loaded (names are shown meanwhile). */
export function useNodes(): Map<string, NodeView> {
  const [nodes, setNodes] = useState<Map<string, NodeView>>(new Map());
  useEffect(() => {
    let live = true;
    loadNodes().then(
      (m) => live && setNodes(m),
      () => undefined, // the timeline still reads with node names
    );
    return () => {
      live = false;
    };
  }, []);
  return nodes;
}
