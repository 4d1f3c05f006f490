import './tracing';
import { startService } from '@dossier/workflow';
import { VerifierModule } from './verifier.module';

void startService({ name: 'verifier', consume: ['verifier'], module: VerifierModule.register });
