import { z } from 'zod';
import { NODE_PHASES } from '../node-table';
import { NODES } from '../nodes';
import { ServiceName } from '../services';

/** A node of the workflow as people read it (`GET /v1/nodes`): the web app's timeline labels come from here. */
export const NodeView = z.strictObject({
  name: z.string(),
  label: z.string(),
  phase: z.enum(NODE_PHASES),
  description: z.string(),
  service: ServiceName,
  /** Runs once per shard (a query, a source, a section, an analyst). */
  fanout: z.boolean(),
});
export type NodeView = z.infer<typeof NodeView>;

export const NodeList = z.strictObject({ items: z.array(NodeView) });
export type NodeList = z.infer<typeof NodeList>;

/** Every node of the table, in table order, as `NodeView`s. */
export function nodeViews(): NodeView[] {
  return NODES.names.map((name) => {
    const row = NODES.rows[name];
    return { name, label: row.label, phase: row.phase, description: row.description, service: row.service, fanout: row.fanout };
  });
}
