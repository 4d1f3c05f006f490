import { Global, Module, type DynamicModule } from '@nestjs/common';
import { HashingEmbedder, type Embedder } from './embedder';
import { EmbeddedVectorStore } from './embedded/embedded-vector-store';
import type { VectorStore } from './vector-store';

export const VECTOR_STORE = Symbol('VECTOR_STORE');
export const EMBEDDER = Symbol('EMBEDDER');

export interface VectorsModuleOptions {
  /** Directory of the embedded store (one process per directory: it is locked while open). */
  dir: string;
}

/** The vector store and embedder of a process: the embedded store and the offline hashing embedder. */
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
            const store = await EmbeddedVectorStore.open({ directory: options.dir });
            return Object.assign(store, { onApplicationShutdown: () => store.close() });
          },
        },
        { provide: EMBEDDER, useFactory: (): Embedder => new HashingEmbedder() },
      ],
      exports: [VECTOR_STORE, EMBEDDER],
    };
  }
}
