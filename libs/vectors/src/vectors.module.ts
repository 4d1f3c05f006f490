import { Global, Module, type DynamicModule } from '@nestjs/common';
import { HashingEmbedder, type Embedder } from './embedder';
import { LanceVectorStore } from './lance/lance-vector-store';
import { QdrantVectorStore } from './qdrant/qdrant-vector-store';
import type { VectorStore } from './vector-store';

export const VECTOR_STORE = Symbol('VECTOR_STORE');
export const EMBEDDER = Symbol('EMBEDDER');

export interface VectorsModuleOptions {
  /** Directory of the embedded LanceDB store; several processes may share it (docs/decisions/0033). */
  dir: string;
  /** Qdrant's URL: when set, Qdrant is the store (every replica shares it) and `dir` is unused. */
  qdrantUrl?: string;
  qdrantApiKey?: string;
}

/** The vector store and embedder of a process: Qdrant when configured, else LanceDB embedded at `dir`; the offline hashing embedder. */
@Global()
@Module({})
export class VectorsModule {
  static forRoot(options: VectorsModuleOptions): DynamicModule {
    return {
      module: VectorsModule,
      providers: [
        {
          provide: VECTOR_STORE,
          useFactory: async (): Promise<VectorStore & { onApplicationShutdown(): Promise<void> }> => {
            if (options.qdrantUrl) {
              const qdrant = new QdrantVectorStore({
                url: options.qdrantUrl,
                ...(options.qdrantApiKey ? { apiKey: options.qdrantApiKey } : {}),
              });
              return Object.assign(qdrant, { onApplicationShutdown: () => qdrant.close() });
            }
            const store = await LanceVectorStore.open({ directory: options.dir });
            return Object.assign(store, { onApplicationShutdown: () => store.close() });
          },
        },
        { provide: EMBEDDER, useFactory: (): Embedder => new HashingEmbedder() },
      ],
      exports: [VECTOR_STORE, EMBEDDER],
    };
  }
}
