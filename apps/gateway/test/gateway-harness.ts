import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SERVICE_NAMES, type TenantPolicyInput } from '@dossier/contracts';
import { loadConfig } from '@dossier/config';
import { ApiKeyRepository, TenantRepository, type Prisma } from '@dossier/db';
import { ClaimsStagesModule } from '@dossier/stage-claims';
import { ExtractorStagesModule } from '@dossier/stage-extractor';
import { PlannerStagesModule } from '@dossier/stage-planner';
import { RendererStagesModule } from '@dossier/stage-renderer';
import { SearcherStagesModule } from '@dossier/stage-searcher';
import { VerifierStagesModule } from '@dossier/stage-verifier';
import { WriterStagesModule } from '@dossier/stage-writer';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@dossier/testing';
import { VectorsModule } from '@dossier/vectors';
import { createGateway } from '../src/create-gateway';
import { GatewayEnv } from '../src/gateway-env';

export const ADMIN_KEY = 'test-admin-key-0123456789';
export const EXAMPLES = path.resolve(__dirname, '../../../examples/corpus');
export const STAGE_MODULES = [
  PlannerStagesModule,
  SearcherStagesModule,
  ExtractorStagesModule,
  ClaimsStagesModule,
  WriterStagesModule,
  VerifierStagesModule,
  RendererStagesModule,
];

export interface Gateway {
  url: string;
  db: TestDatabase;
  app: NestFastifyApplication;
  tenant(name: string, policy?: TenantPolicyInput): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/**
 * The real gateway on a random port over a fresh test database and its own Redis queues. With `workers`
 * it also hosts every stage and the conductor's relay in this process (as `dossier research` does), so
 * runs go end to end; without, runs stay queued (enough for contract, isolation and fuzz tests).
 */
export async function startGateway(
  opts: { workers?: boolean; env?: Record<string, string>; databasePort?: number } = {},
): Promise<Gateway> {
  const db = await createTestDatabase();
  // A test that cuts the database away puts a proxy's port in the gateway's URL.
  const databaseUrl = new URL(db.url);
  if (opts.databasePort !== undefined) databaseUrl.port = String(opts.databasePort);
  const env = loadConfig(GatewayEnv, {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: uniquePrefix('gw'),
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_API_KEY: ADMIN_KEY,
    SSE_HEARTBEAT_MS: '1000',
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    // Contract and fuzz tests send thousands of bad keys from one address; the limit has its own test.
    AUTH_FAILURE_RATE_PER_MINUTE: '6000000',
    AUTH_FAILURE_BURST: '100000',
    BODY_LIMIT_BYTES: String(256 * 1024),
    // Tests start runs that wait in their queues (no workers) by the dozen; the limit has its own tests.
    RUNS_IN_PROGRESS_PER_TENANT: '100000',
    STEP_LOCK_MS: '2000',
    STALLED_INTERVAL_MS: '1000',
    STEP_BACKOFF_MS: '100',
    ...opts.env,
  });
  const app = await createGateway(
    env,
    opts.workers
      ? {
          consume: SERVICE_NAMES,
          conductor: { relayIntervalMs: 200, reconcileIntervalMs: 1_000, relayMinAgeMs: 500, stallWatchIntervalMs: 200 },
          imports: [VectorsModule.forRoot({ dir: mkdtempSync(path.join(tmpdir(), 'dossier-gw-vectors-')) }), ...STAGE_MODULES],
        }
      : {},
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    db,
    app,
    async tenant(name, policy = {}) {
      const tenant = await app.get(TenantRepository).create(name, policy as Prisma.InputJsonValue);
      const { key } = await app.get(ApiKeyRepository).create(tenant.id, `${name}-robot`);
      return { id: tenant.id, key };
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A small HTTP client for one key. */
export function client(base: string, key?: string) {
  return async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: callers look at text
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

/** A handful of the example corpus's markdown documents: small enough for a quick run, with real disagreements. */
export const SMALL_CORPUS = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'timeline-lake-varen-2014-2025.md',
  'kessmark-climate-office-bulletin-2024.md',
  'varen-lake-trust-report-2024.md',
];

export async function uploadCorpus(api: ReturnType<typeof client>, name: string): Promise<string> {
  const created = await api('POST', '/v1/collections', { name });
  if (created.status !== 201 && created.status !== 200) throw new Error(`collection: ${created.status} ${created.text}`);
  for (const file of SMALL_CORPUS) {
    const up = await api('POST', `/v1/collections/${created.json.id}/documents`, {
      filename: file,
      content: readFileSync(path.join(EXAMPLES, file), 'utf8'),
    });
    if (up.status !== 201 && up.status !== 200) throw new Error(`upload ${file}: ${up.status} ${up.text}`);
  }
  return created.json.id as string;
}

export const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
