import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A PROTOCOL DOUBLE of Qdrant for tests, NOT Qdrant: a small HTTP server answering the subset of Qdrant's
 * REST API that QdrantVectorStore uses, in Qdrant's request and response shapes (collections get/create/
 * delete, payload index create, points upsert/query/query batch/count/delete with `must`+`match` filters, cosine
 * distance, 404/409/400 errors). It lets the real client and adapter run in CI; the same contract suite
 * runs against a real Qdrant when QDRANT_URL is set.
 */
export interface QdrantDouble {
  url: string;
  /** Requests received, as "METHOD /path" (for asserting what the adapter sent). */
  requests(): string[];
  close(): Promise<void>;
}

type Payload = Record<string, unknown>;
interface Point {
  id: string;
  vector: number[];
  payload: Payload;
  version: number;
}
interface Collection {
  size: number;
  distance: string;
  points: Map<string, Point>;
  indexes: Map<string, unknown>;
}
interface Condition {
  key: string;
  match: { value: unknown };
}
interface Filter {
  must?: Condition[];
}

function unit(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v.slice() : v.map((x) => x / norm);
}

function matches(p: Point, filter: Filter | undefined): boolean {
  return (filter?.must ?? []).every((c) => p.payload[c.key] === c.match.value);
}

/** One query request (`points/query`, or one search of `points/query/batch`): its answer, or the refusal's message. */
function query(col: Collection, body: Record<string, unknown>): { points: unknown[] } | string {
  const vector = body['query'] as number[];
  if (!Array.isArray(vector) || vector.length !== col.size)
    return `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${vector?.length}`;
  const q = unit(vector);
  const threshold = body['score_threshold'] as number | undefined;
  const hits = [...col.points.values()]
    .filter((p) => matches(p, body['filter'] as Filter | undefined))
    .map((p) => ({ p, score: p.vector.reduce((s, x, i) => s + x * q[i]!, 0) }))
    .filter((h) => threshold === undefined || h.score >= threshold)
    .sort((a, b) => b.score - a.score)
    .slice(0, Number(body['limit'] ?? 10));
  return {
    points: hits.map(({ p, score }) => ({
      id: p.id,
      version: p.version,
      score,
      ...(body['with_payload'] ? { payload: p.payload } : {}),
    })),
  };
}

export async function startQdrantDouble(): Promise<QdrantDouble> {
  const collections = new Map<string, Collection>();
  const seen: string[] = [];
  let operation = 0;
  const started = Date.now();

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, result: unknown): void => send(res, 200, { result, status: 'ok', time: (Date.now() - started) / 1e6 });
  const error = (res: ServerResponse, status: number, message: string): void => send(res, status, { status: { error: message }, time: 0 });
  const done = (res: ServerResponse): void => ok(res, { operation_id: ++operation, status: 'completed' });

  const handle = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): void => {
    const url = new URL(req.url ?? '/', 'http://double');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    seen.push(`${req.method} ${url.pathname}`);
    if (parts[0] !== 'collections' || !parts[1]) return error(res, 404, `Not found: ${url.pathname}`);
    const name = parts[1];
    const rest = parts.slice(2).join('/');
    const col = collections.get(name);

    if (rest === '' && req.method === 'PUT') {
      if (col) return error(res, 409, `Wrong input: Collection \`${name}\` already exists!`);
      const vectors = body['vectors'] as { size?: unknown; distance?: unknown } | undefined;
      if (typeof vectors?.size !== 'number' || vectors.distance !== 'Cosine')
        return error(res, 400, 'Wrong input: this double supports one unnamed Cosine vector');
      collections.set(name, { size: vectors.size, distance: vectors.distance, points: new Map(), indexes: new Map() });
      return ok(res, true);
    }
    if (!col) return error(res, 404, `Not found: Collection \`${name}\` doesn't exist!`);
    if (rest === '' && req.method === 'GET') {
      return ok(res, {
        status: 'green',
        optimizer_status: 'ok',
        points_count: col.points.size,
        segments_count: 1,
        config: { params: { vectors: { size: col.size, distance: col.distance }, shard_number: 1, replication_factor: 1 } },
        payload_schema: Object.fromEntries(col.indexes),
      });
    }
    if (rest === '' && req.method === 'DELETE') {
      collections.delete(name);
      return ok(res, true);
    }
    if (rest === 'index' && req.method === 'PUT') {
      col.indexes.set(String(body['field_name']), {
        data_type: (body['field_schema'] as { type?: string })?.type ?? body['field_schema'],
        points: col.points.size,
      });
      return done(res);
    }
    if (rest === 'points' && req.method === 'PUT') {
      const points = (body['points'] ?? []) as { id: string; vector: number[]; payload?: Payload }[];
      const bad = points.find((p) => !Array.isArray(p.vector) || p.vector.length !== col.size);
      if (bad) return error(res, 400, `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${bad.vector?.length}`);
      for (const p of points)
        col.points.set(String(p.id).toLowerCase(), {
          id: String(p.id).toLowerCase(),
          vector: unit(p.vector),
          payload: p.payload ?? {},
          version: operation + 1,
        });
      return done(res);
    }
    if (rest === 'points/query' && req.method === 'POST') {
      const answer = query(col, body);
      return typeof answer === 'string' ? error(res, 400, answer) : ok(res, answer);
    }
    // Qdrant's batch of queries: one answer per search, in order; one bad search refuses the whole request.
    if (rest === 'points/query/batch' && req.method === 'POST') {
      const searches = body['searches'];
      if (!Array.isArray(searches)) return error(res, 400, 'Format error in JSON body: missing field `searches`');
      const answers = searches.map((s: Record<string, unknown>) => query(col, s));
      const refused = answers.find((a): a is string => typeof a === 'string');
      return refused ? error(res, 400, refused) : ok(res, answers);
    }
    if (rest === 'points/count' && req.method === 'POST') {
      return ok(res, { count: [...col.points.values()].filter((p) => matches(p, body['filter'] as Filter | undefined)).length });
    }
    if (rest === 'points/delete' && req.method === 'POST') {
      for (const p of [...col.points.values()]) if (matches(p, body['filter'] as Filter | undefined)) col.points.delete(p.id);
      return done(res);
    }
    return error(res, 404, `Not found: ${req.method} ${url.pathname} is not in this double`);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        if (chunks.length > 0) body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return error(res, 400, 'Format error in JSON body');
      }
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
