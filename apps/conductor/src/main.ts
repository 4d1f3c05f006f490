import './tracing';
import { startService } from '@dossier/workflow';
import { ConductorModule } from './conductor.module';

void startService({ name: 'conductor', consume: [], conductor: true, module: ConductorModule.register });
