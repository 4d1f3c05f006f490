import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { VerifyHandler } from './verify/verify.handler';

/** The verifier service's node: verify (fan-out per section, once per repair round). */
@Module({ imports: [AgentsModule], providers: [VerifyHandler] })
export class VerifierStagesModule {}
