import { z } from 'zod';
import { SERVICE_NAMES, type ServiceName } from './services';
import { STEP_BASE } from './step-base';

/**
 * One node of the workflow, declared once (docs/decisions/0013). Everything else about a node (its name's
 * type, its queue, whether it fans out, its step-job schema, its result schema) is derived from its row.
 */
/** Where a node sits in a run, for people: the web app's timeline, the CLI's progress lines, the architecture doc. */
export const NODE_PHASES = ['plan', 'research', 'interviews', 'write'] as const;
export type NodePhase = (typeof NODE_PHASES)[number];

export interface NodeRow {
  /** What a person reads for the node (the web app's timeline, the CLI's progress lines): a few words. */
  readonly label: string;
  readonly phase: NodePhase;
  /** One line on what the node produces (the architecture doc's node table is generated from it). */
  readonly description: string;
  /** The service (queue) whose workers run the node. */
  readonly service: ServiceName;
  /** A fan-out node runs once per shard; the node after it runs once, when the last shard completes (the join). */
  readonly fanout: boolean;
  /**
   * What the node reports when it completes: the persisted facts the router reads (fan-out sizes, loop signals)
   * and counts for progress. A `z.strictObject`; everything else a node produces goes to its own tables.
   */
  readonly result: z.ZodObject;
  /** The agent roles (names in `@dossier/agents` ROLES) the node's handler calls; empty for nodes with no agent. */
  readonly roles: readonly string[];
}

export type NodeRows = { readonly [node: string]: NodeRow };

export type NodeNameOf<R extends NodeRows> = Extract<keyof R, string>;
export type ResultOf<R extends NodeRows, N extends NodeNameOf<R>> = z.infer<R[N]['result']>;
export type FanoutNodeOf<R extends NodeRows> = { [N in NodeNameOf<R>]: R[N]['fanout'] extends true ? N : never }[NodeNameOf<R>];
export type RoleOf<R extends NodeRows> = R[NodeNameOf<R>]['roles'][number];

/** The keys of a result whose value is always a number: what a fan-out may count its shards by. */
export type CountField<T> = Exclude<{ [K in keyof T]: T[K] extends number ? K : never }[keyof T], undefined> & string;

/** The step-job payload of node `N` (distributes over a union of nodes). A single-step node has shard 0. */
export type StepJobFor<R extends NodeRows, N extends NodeNameOf<R>> = N extends unknown
  ? {
      tenantId: string;
      runId: string;
      iteration: number;
      trace?: Record<string, string> | undefined;
      links?: Record<string, string>[] | undefined;
      runCreatedAt?: number | undefined;
      node: N;
      shard: R[N]['fanout'] extends true ? number : 0;
    }
  : never;

/** Node names become step keys and job ids (`runId.node.iteration.shard`): no dots, no colons. */
const NODE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

export class NodeTableError extends Error {
  override readonly name = 'NodeTableError';
}

/**
 * The node table: rows plus what is derived from them. Built once per table at import time (a bad row fails
 * the import, not a run). `extend` gives a larger table without touching this one: tests declare extra nodes
 * that way, and a process hands its table to the engine (`EngineSettings.workflows`).
 */
export class NodeTable<const R extends NodeRows> {
  readonly names: readonly NodeNameOf<R>[];
  /** The names as a zod enum (parses a node name from outside). */
  readonly nodeName: z.ZodType<NodeNameOf<R>>;
  /** The step-job payload, discriminated by node: enqueue accepts nothing else, and every worker parses its jobs with it. */
  readonly stepJob: z.ZodType<StepJobFor<R, NodeNameOf<R>>>;
  readonly results: { readonly [N in NodeNameOf<R>]: R[N]['result'] };
  readonly service: { readonly [N in NodeNameOf<R>]: ServiceName };
  readonly fanout: readonly FanoutNodeOf<R>[];

  constructor(readonly rows: R) {
    const names = Object.keys(rows) as NodeNameOf<R>[];
    if (names.length === 0) throw new NodeTableError('A node table needs at least one node');
    for (const name of names) {
      const row = rows[name]!;
      const where = `node ${JSON.stringify(name)}`;
      if (!NODE_NAME_PATTERN.test(name))
        throw new NodeTableError(`${where}: a node name is lower_snake_case (it becomes part of step keys)`);
      if (!(SERVICE_NAMES as readonly string[]).includes(row.service)) throw new NodeTableError(`${where}: unknown service ${row.service}`);
      if (!(row.result instanceof z.ZodObject)) throw new NodeTableError(`${where}: the result schema must be a zod object`);
      if (row.roles.some((r) => typeof r !== 'string' || r.length === 0))
        throw new NodeTableError(`${where}: role names must be non-empty`);
      if (!row.label?.trim() || !row.description?.trim()) throw new NodeTableError(`${where}: a node needs a label and a description`);
      if (!(NODE_PHASES as readonly string[]).includes(row.phase)) throw new NodeTableError(`${where}: unknown phase ${String(row.phase)}`);
    }
    this.names = Object.freeze(names);
    this.nodeName = z.enum(names as [NodeNameOf<R>, ...NodeNameOf<R>[]]) as unknown as z.ZodType<NodeNameOf<R>>;
    const schemas = names.map((node) =>
      z.strictObject({
        ...STEP_BASE,
        node: z.literal(node),
        // A single-step node always has shard 0: a different shard would be a second, different step key.
        shard: rows[node]!.fanout ? z.int().min(0).max(100_000) : z.literal(0),
      }),
    );
    // The union's static type is StepJobFor (zod cannot infer a discriminated union built from a list).
    this.stepJob = z.discriminatedUnion(
      'node',
      schemas as [(typeof schemas)[number], ...(typeof schemas)[number][]],
    ) as unknown as z.ZodType<StepJobFor<R, NodeNameOf<R>>>;
    this.results = Object.freeze(Object.fromEntries(names.map((n) => [n, rows[n]!.result]))) as NodeTable<R>['results'];
    this.service = Object.freeze(Object.fromEntries(names.map((n) => [n, rows[n]!.service]))) as NodeTable<R>['service'];
    this.fanout = Object.freeze(names.filter((n) => rows[n]!.fanout) as FanoutNodeOf<R>[]);
  }

  has(node: unknown): node is NodeNameOf<R> {
    return typeof node === 'string' && Object.hasOwn(this.rows, node);
  }

  isFanout(node: NodeNameOf<R>): node is FanoutNodeOf<R> {
    return this.rows[node]?.fanout === true;
  }

  nodesOf(service: ServiceName): NodeNameOf<R>[] {
    return this.names.filter((n) => this.rows[n]!.service === service);
  }

  /** Every role named by some node, once each, in table order. */
  roles(): RoleOf<R>[] {
    return [...new Set(this.names.flatMap((n) => this.rows[n]!.roles))] as RoleOf<R>[];
  }

  /** This table plus `rows` (new names only: a node is declared once). */
  extend<const X extends NodeRows>(rows: X & { readonly [K in keyof R]?: never }): NodeTable<R & X> {
    const clash = Object.keys(rows).filter((n) => Object.hasOwn(this.rows, n));
    if (clash.length > 0) throw new NodeTableError(`node(s) ${clash.join(', ')} are already declared`);
    return new NodeTable({ ...this.rows, ...rows } as R & X);
  }
}

export function nodeTable<const R extends NodeRows>(rows: R): NodeTable<R> {
  return new NodeTable(rows);
}
