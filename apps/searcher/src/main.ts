import './tracing';
import { startService } from '@dossier/workflow';
import { SearcherModule } from './searcher.module';

void startService({ name: 'searcher', consume: ['searcher'], module: SearcherModule.register });
