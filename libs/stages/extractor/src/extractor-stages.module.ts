import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { ExtractHandler } from './extract/extract.handler';

/** The extractor service's node: extract (fan-out per selected source). */
@Module({ imports: [AgentsModule], providers: [ExtractHandler] })
export class ExtractorStagesModule {}
