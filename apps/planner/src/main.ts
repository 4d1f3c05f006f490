import './tracing';
import { startService } from '@dossier/workflow';
import { PlannerModule } from './planner.module';

void startService({ name: 'planner', consume: ['planner'], module: PlannerModule.register });
