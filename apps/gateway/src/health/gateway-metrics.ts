import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { platformTotals, PrismaService } from '@dossier/db';
import { singleMetric } from '@dossier/telemetry';

/**
 * The gateway's metrics, on the default registry (shared with the workers' metrics in libs/telemetry).
 * Runs by status and LLM totals are read from Postgres when Prometheus scrapes, so they are right on any replica;
 * queue depth per state and the backlog come from libs/telemetry through StepQueues' depth source.
 */
@Injectable()
export class GatewayMetrics implements OnModuleInit {
  readonly requests = singleMetric(
    'dossier_gateway_http_requests_total',
    () =>
      new Counter({
        name: 'dossier_gateway_http_requests_total',
        help: 'HTTP requests by method, route and status',
        labelNames: ['method', 'route', 'status'],
      }),
  );
  readonly latency = singleMetric(
    'dossier_gateway_http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'dossier_gateway_http_request_duration_seconds',
        help: 'HTTP request latency',
        labelNames: ['method', 'route'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      }),
  );

  constructor(private readonly prisma: PrismaService) {}

  onModuleInit(): void {
    // Collectors close over this instance; in a process with one gateway (production) that is the only one.
    const prisma = this.prisma;
    const runs = singleMetric(
      'dossier_runs',
      () => new Gauge({ name: 'dossier_runs', help: 'Research runs by status (all tenants)', labelNames: ['status'] }),
    );
    (runs as unknown as { collect?: () => Promise<void> }).collect = async function collect(this: Gauge) {
      const rows = await platformTotals.runsByStatus(prisma);
      this.reset();
      for (const r of rows) this.set({ status: r.status }, r.count);
    };
    const tokens = singleMetric(
      'dossier_llm_tokens',
      () => new Gauge({ name: 'dossier_llm_tokens', help: 'LLM tokens recorded in llm_calls, by direction', labelNames: ['direction'] }),
    );
    (tokens as unknown as { collect?: () => Promise<void> }).collect = async function collect(this: Gauge) {
      const usage = await platformTotals.llmUsage(prisma);
      this.set({ direction: 'in' }, usage.tokensIn);
      this.set({ direction: 'out' }, usage.tokensOut);
    };
    const cost = singleMetric(
      'dossier_llm_cost_usd',
      () => new Gauge({ name: 'dossier_llm_cost_usd', help: 'LLM cost in USD recorded in llm_calls' }),
    );
    (cost as unknown as { collect?: () => Promise<void> }).collect = async function collect(this: Gauge) {
      this.set((await platformTotals.llmUsage(prisma)).costUsd);
    };
  }
}
