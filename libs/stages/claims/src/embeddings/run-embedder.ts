import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { EXTERNAL_ANSWERS, LlmRequestError, LlmUnavailableError, openAIEmbedderFromEnv, type ExternalAnswers } from '@dossier/agents';
import { environment } from '@dossier/config';
import type { RunOptions } from '@dossier/contracts';
import { embeddingsFellBack, PrismaService } from '@dossier/db';
import { REDIS } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';
import { EMBEDDER, type Embedder } from '@dossier/vectors';

/** Where a step embeds: its run, and the step (named in the fallback record). */
export interface EmbeddingScope {
  tenantId: string;
  runId: string;
  stepKey: string;
  run: { options: Pick<RunOptions, 'engine'> };
}

/**
 * The embedder of a run (decision 0020): the OpenAI-compatible embeddings endpoint (OPENAI_EMBEDDINGS_*) for openai
 * runs when this worker configures one, the offline feature-hashing embedder otherwise — an offline run makes no
 * network request. Vectors of different embedders live in different collections (`collection`), so switching the
 * embedder never mixes vector spaces or dimensions. The remote embedder's batches go through the run's recording
 * (`answers`, AgentsModule's EXTERNAL_ANSWERS: decision 0030), so a replay embeds without the network.
 *
 * An endpoint that fails mid-run (a refusal, or no answer after its retries) does not fail the run: the run is marked
 * (`research_runs.embeddings_fallback`) and this step and every later one embed locally (decision 0043). The preflight
 * (0042) already refused an endpoint that failed before the run spent anything.
 */
@Injectable()
export class RunEmbedder {
  private readonly logger = createLogger('run-embedder');
  private remote: Embedder | null | undefined;

  constructor(
    @Inject(EMBEDDER) private readonly offline: Embedder,
    @Inject(EXTERNAL_ANSWERS) private readonly answers: ExternalAnswers,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
    @Optional() private readonly prisma?: PrismaService,
  ) {}

  /** The configured embedder of a run, ignoring any fallback (offline runs: the local one). */
  for(options: Pick<RunOptions, 'engine'>): Embedder {
    if (options.engine !== 'openai') return this.offline;
    if (this.remote === undefined) {
      const env = environment();
      this.remote = env['OPENAI_EMBEDDINGS_MODEL'] ? openAIEmbedderFromEnv(env, this.redis ?? null, this.answers) : null;
    }
    return this.remote ?? this.offline;
  }

  /**
   * Runs `work` with the run's embedder. `switched` says the run changed embedders on the way: the local collections
   * may lack the run's earlier vectors, so the caller stores them again. The remote embedder failing inside `work`
   * marks the run and runs `work` again with the local one.
   */
  async use<T>(scope: EmbeddingScope, work: (embedder: Embedder, switched: boolean) => Promise<T>): Promise<T> {
    const configured = this.for(scope.run.options);
    if (configured === this.offline) return work(this.offline, false);
    if (await this.fellBack(scope)) return work(this.offline, true);
    try {
      return await work(configured, false);
    } catch (err) {
      if (!(err instanceof LlmRequestError || err instanceof LlmUnavailableError)) throw err;
      const reason = err.message.slice(0, 500);
      this.logger.warn(
        { runId: scope.runId, stepKey: scope.stepKey, embedder: configured.name, err: reason },
        'embeddings endpoint failed: the run goes on with the local embedder',
      );
      await this.markFallback(scope, { from: configured.name, to: this.offline.name, stepKey: scope.stepKey, reason });
      return work(this.offline, true);
    }
  }

  private async fellBack(scope: EmbeddingScope): Promise<boolean> {
    if (!this.prisma) return false;
    return embeddingsFellBack(this.prisma, scope.tenantId, scope.runId);
  }

  /** The first fallback of a run is kept (a step run again, or two steps at once, do not overwrite it). */
  private async markFallback(
    scope: EmbeddingScope,
    fallback: { from: string; to: string; stepKey: string; reason: string },
  ): Promise<void> {
    if (!this.prisma) return;
    await this.prisma.$executeRaw`
      UPDATE research_runs SET embeddings_fallback = COALESCE(embeddings_fallback, ${JSON.stringify(fallback)}::jsonb)
      WHERE id = ${scope.runId}::uuid AND tenant_id = ${scope.tenantId}::uuid`;
  }
}

/** The collection of `kind` vectors made by `embedder`: one per vector space. */
export function collectionFor(kind: 'claims' | 'evidence', embedder: Embedder): string {
  const space = embedder.name.replace(/[^A-Za-z0-9_-]+/g, '_');
  // The hashing embedder's claims keep the collection name they always had.
  return kind === 'claims' && embedder.name === 'hashing-v1' ? 'claims' : `${kind}-${space}`.slice(0, 128);
}
