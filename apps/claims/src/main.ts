import './tracing';
import { startService } from '@dossier/workflow';
import { ClaimsModule } from './claims.module';

void startService({ name: 'claims', consume: ['claims'], module: ClaimsModule.register });
