import './tracing';
import { startService } from '@dossier/workflow';
import { RendererModule } from './renderer.module';

void startService({ name: 'renderer', consume: ['renderer'], module: RendererModule.register });
