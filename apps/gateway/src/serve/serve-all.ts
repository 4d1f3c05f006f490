import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { loadConfig } from '@dossier/config';
import { SERVICE_NAMES } from '@dossier/contracts';
import { ApiKeyRepository, TenantRepository } from '@dossier/db';
import { ConfigError } from '@dossier/errors';
import { ClaimsStagesModule } from '@dossier/stage-claims';
import { ExtractorStagesModule } from '@dossier/stage-extractor';
import { PlannerStagesModule } from '@dossier/stage-planner';
import { RendererStagesModule } from '@dossier/stage-renderer';
import { SearcherStagesModule } from '@dossier/stage-searcher';
import { VerifierStagesModule } from '@dossier/stage-verifier';
import { WriterStagesModule } from '@dossier/stage-writer';
import { startOpsServer, type OpsServer } from '@dossier/telemetry';
import { VectorsModule } from '@dossier/vectors';
import { createGateway } from '../create-gateway';
import { GatewayEnv } from '../gateway-env';
import { BULL_BOARD_PATH } from '../admin/bull-board';
import { ensureLocalAccess } from './local-access';

/**
 * What `dossier serve` asks for. It crosses a process-internal boundary that no compiler checks (the CLI loads
 * this file at run time, docs/decisions/0050), so it is parsed, not trusted.
 */
export const ServeAllInput = z.object({
  port: z.number().int().min(0).max(65_535),
  host: z.string().min(1),
  /** The one ops server of this process (/metrics, /healthz, /readyz); 0 = none. */
  metricsPort: z.number().int().min(0).max(65_535),
  /** The tenant the CLI's local mode uses, so its ingested documents are visible here. */
  tenant: z.string().min(1),
  /** Create a key for the local user even if one exists (the first start always creates one). */
  newKey: z.boolean(),
  /** The environment the gateway and the stages read (DATABASE_URL, REDIS_URL, QUEUE_PREFIX, VECTOR_DIR, OPENAI_*, …). */
  env: z.record(z.string(), z.string().optional()),
});
export type ServeAllInput = z.infer<typeof ServeAllInput>;

export interface ServingStack {
  url: string;
  metricsPort: number | null;
  tenant: { id: string; name: string };
  createdKey: string | null;
  activePrefixes: string[];
  adminKey: string;
  adminKeyGenerated: boolean;
  adminUrl: string;
  close(): Promise<void>;
}

const STAGE_MODULES = [
  PlannerStagesModule,
  SearcherStagesModule,
  ExtractorStagesModule,
  ClaimsStagesModule,
  WriterStagesModule,
  VerifierStagesModule,
  RendererStagesModule,
];

/** A port someone else holds, said as the flag that changes it. */
async function listening<T>(flag: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new ConfigError(`Port ${port} is in use: choose another with ${flag} N`);
    throw err;
  }
}

/**
 * The whole stack in this process: the gateway (API, web app, bull-board), every stage service consuming its
 * queue, and the conductor's relay, reconciliation and stall watch (as the CLI's local mode hosts them), on the
 * database and Redis the environment names. Returns what to tell the person who started it.
 */
export async function serveAll(raw: ServeAllInput): Promise<ServingStack> {
  const input = ServeAllInput.parse(raw);
  const generatedAdminKey = input.env['ADMIN_API_KEY'] ? null : randomBytes(24).toString('base64url');
  const env = loadConfig(GatewayEnv, {
    ...input.env,
    PORT: String(input.port),
    HOST: input.host,
    ...(generatedAdminKey ? { ADMIN_API_KEY: generatedAdminKey } : {}),
  });
  const app: NestFastifyApplication = await createGateway(env, {
    consume: SERVICE_NAMES,
    conductor: { relayIntervalMs: 1_000, reconcileIntervalMs: 5_000, relayMinAgeMs: 2_000, stallWatchIntervalMs: 500 },
    imports: [
      VectorsModule.forRoot({ dir: env.VECTOR_DIR, qdrantUrl: env.QDRANT_URL, qdrantApiKey: env.QDRANT_API_KEY }),
      ...STAGE_MODULES,
    ],
  });
  let ops: OpsServer | undefined;
  let stopping = false;
  try {
    const access = await ensureLocalAccess(app.get(TenantRepository), app.get(ApiKeyRepository), input.tenant, input.newKey);
    await listening('--port', input.port, () => app.listen({ port: input.port, host: input.host }));
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : input.port;
    if (input.metricsPort > 0) {
      ops = await listening('--metrics-port', input.metricsPort, () =>
        startOpsServer({ port: input.metricsPort, host: input.host, ready: () => !stopping }),
      );
    }
    const shownHost = input.host === '0.0.0.0' || input.host === '::' ? 'localhost' : input.host;
    const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
    return {
      url,
      metricsPort: ops?.port ?? null,
      tenant: access.tenant,
      createdKey: access.createdKey,
      activePrefixes: access.activePrefixes,
      adminKey: env.ADMIN_API_KEY!,
      adminKeyGenerated: generatedAdminKey !== null,
      adminUrl: `${url}${BULL_BOARD_PATH}`,
      async close() {
        stopping = true;
        await app.close();
        await ops?.close();
      },
    };
  } catch (err) {
    stopping = true;
    await app.close().catch(() => undefined);
    await ops?.close();
    throw err;
  }
}
