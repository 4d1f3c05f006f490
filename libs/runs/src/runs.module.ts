import { Module } from '@nestjs/common';
import { FollowUps } from './follow-ups';
import { GateEdits } from './gate-edits';
import { RunArchives } from './run-archives';
import { RunCommands } from './run-commands';
import { ReportShares } from './report-shares';
import { RunQueries } from './run-queries';

const RUN_APPLICATION = [RunCommands, RunQueries, GateEdits, RunArchives, ReportShares, FollowUps];

/**
 * The run application: what the gateway's endpoints and the CLI's local transport ask of runs. It needs the engine
 * (WorkflowModule.forRoot, global) in the same application; it writes research tables through libs/db's repositories.
 */
@Module({ providers: RUN_APPLICATION, exports: RUN_APPLICATION })
export class RunsModule {}
