import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { EXTERNAL_ANSWERS, openAIEmbedderFromEnv, type ExternalAnswers } from '@dossier/agents';
import { environment } from '@dossier/config';
import type { RunOptions } from '@dossier/contracts';
import { REDIS } from '@dossier/queue';
import { EMBEDDER, type Embedder } from '@dossier/vectors';

/**
 * The embedder of a run (decision 0020): the OpenAI-compatible embeddings endpoint (OPENAI_EMBEDDINGS_*) for openai
 * runs when this worker configures one, the offline feature-hashing embedder otherwise — an offline run makes no
 * network request. Vectors of different embedders live in different collections (`collection`), so switching the
 * embedder never mixes vector spaces or dimensions. The remote embedder's batches go through the run's recording
 * (`answers`, AgentsModule's EXTERNAL_ANSWERS: decision 0030), so a replay embeds without the network.
 */
@Injectable()
export class RunEmbedder {
  private remote: Embedder | null | undefined;

  constructor(
    @Inject(EMBEDDER) private readonly offline: Embedder,
    @Inject(EXTERNAL_ANSWERS) private readonly answers: ExternalAnswers,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  for(options: Pick<RunOptions, 'engine'>): Embedder {
    if (options.engine !== 'openai') return this.offline;
    if (this.remote === undefined) {
      const env = environment();
      this.remote = env['OPENAI_EMBEDDINGS_MODEL'] ? openAIEmbedderFromEnv(env, this.redis ?? null, this.answers) : null;
    }
    return this.remote ?? this.offline;
  }
}

/** The collection of `kind` vectors made by `embedder`: one per vector space. */
export function collectionFor(kind: 'claims' | 'evidence', embedder: Embedder): string {
  const space = embedder.name.replace(/[^A-Za-z0-9_-]+/g, '_');
  // The hashing embedder's claims keep the collection name they always had.
  return kind === 'claims' && embedder.name === 'hashing-v1' ? 'claims' : `${kind}-${space}`.slice(0, 128);
}
