import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import type { ServiceName } from '@dossier/contracts';
import { RunsModule } from '@dossier/runs';
import { engineSettingsFromEnv, WorkflowModule, type EngineSettings } from '@dossier/workflow';
import { ApprovalsController } from './approvals/approvals.controller';
import { ActivityController } from './activity/activity.controller';
import { RunActivityQuery } from './activity/run-activity.query';
import { ApiKeyGuard } from './auth/api-key.guard';
import { CapabilitiesController } from './capabilities/capabilities.controller';
import { AuthFailureLimiter } from './auth/auth-failure-limiter';
import { EventStreamLeases } from './limits/event-stream-leases';
import { TenantLimits } from './limits/tenant-limits';
import { TenantRateLimiter } from './auth/tenant-rate-limiter';
import { CollectionsController } from './collections/collections.controller';
import { DocsController } from './docs/docs.controller';
import { EventsController } from './events/events.controller';
import { RunEventFeed } from './events/run-event-feed';
import type { GatewayEnv } from './gateway-env';
import { GATEWAY_ENV } from './gateway-tokens';
import { GatewayMetrics } from './health/gateway-metrics';
import { HealthController } from './health/health.controller';
import { InterventionsController } from './interventions/interventions.controller';
import { McpController } from './mcp/mcp.controller';
import { MeController } from './me/me.controller';
import { NodesController } from './nodes/nodes.controller';
import { ResultsController } from './results/results.controller';
import { RunLookup } from './runs/run-lookup';
import { SourcesController } from './sources/sources.controller';
import { SharedReportController, SharesController } from './shares/shares.controller';
import { ShareTokenGuard } from './shares/share-token.guard';
import { RunsController } from './runs/runs.controller';

export interface GatewayHosting {
  /** Queues this process also works on: empty in production; tests and single-machine setups host the stages here. */
  consume?: readonly ServiceName[];
  conductor?: EngineSettings['conductor'];
  imports?: ModuleMetadata['imports'];
}

/** The gateway: the HTTP API over the workflow engine (a producer; it runs no step unless told to host some). */
@Module({})
export class GatewayModule {
  static register(env: GatewayEnv, hosting: GatewayHosting = {}): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        WorkflowModule.forRoot({
          ...engineSettingsFromEnv(env, hosting.consume ?? []),
          ...(hosting.conductor ? { conductor: hosting.conductor } : {}),
        }),
        RunsModule,
        ...(hosting.imports ?? []),
      ],
      controllers: [
        RunsController,
        EventsController,
        ApprovalsController,
        InterventionsController,
        ResultsController,
        CollectionsController,
        SourcesController,
        HealthController,
        DocsController,
        MeController,
        NodesController,
        CapabilitiesController,
        ActivityController,
        SharesController,
        SharedReportController,
        McpController,
      ],
      providers: [
        { provide: GATEWAY_ENV, useValue: env },
        RunEventFeed,
        ApiKeyGuard,
        ShareTokenGuard,
        TenantRateLimiter,
        AuthFailureLimiter,
        EventStreamLeases,
        TenantLimits,
        RunLookup,
        RunActivityQuery,
        GatewayMetrics,
      ],
    };
  }
}
