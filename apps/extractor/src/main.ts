import './tracing';
import { startService } from '@dossier/workflow';
import { ExtractorModule } from './extractor.module';

void startService({ name: 'extractor', consume: ['extractor'], module: ExtractorModule.register });
