import './tracing';
import { startService } from '@dossier/workflow';
import { WriterModule } from './writer.module';

void startService({ name: 'writer', consume: ['writer'], module: WriterModule.register });
