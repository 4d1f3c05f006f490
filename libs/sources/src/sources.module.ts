import { Module } from '@nestjs/common';
import { PrismaService } from '@dossier/db';
import { CorpusSearchProvider } from './search/corpus-search-provider';
import { SnapshotStore } from './snapshots/snapshot-store';

/**
 * Nest wiring for apps that host stages: the corpus search provider on the process's Prisma client, and
 * the snapshot store. Needs DbModule (global) imported by the app. Everything here also works without Nest.
 */
@Module({
  providers: [
    SnapshotStore,
    { provide: CorpusSearchProvider, useFactory: (prisma: PrismaService) => new CorpusSearchProvider(prisma), inject: [PrismaService] },
  ],
  exports: [SnapshotStore, CorpusSearchProvider],
})
export class SourcesModule {}
