import type { NodeSDK } from '@opentelemetry/sdk-node';
import { environment } from '@dossier/config';

let sdk: NodeSDK | undefined;

function exporterConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_TRACES_EXPORTER']);
}

/**
 * Starts the OpenTelemetry NodeSDK. Must run before application code is loaded (main.ts imports
 * `./tracing` first) so the pg, ioredis and http modules are patched when they are first required.
 * Export is configured by the standard OTEL_* variables; with none set, spans are created (trace ids
 * reach the logs) but not exported, so a laptop run never tries to reach a collector that is not there.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = environment()): NodeSDK | undefined {
  if (sdk || env['OTEL_SDK_DISABLED'] === 'true') return sdk;
  env['OTEL_SERVICE_NAME'] ??= `dossier-${serviceName}`;
  // Metrics and logs go through Prometheus and pino, not OTLP (issue 7 decides otherwise if needed).
  env['OTEL_METRICS_EXPORTER'] ??= 'none';
  env['OTEL_LOGS_EXPORTER'] ??= 'none';
  // The SDK and the instrumentations are loaded here, not with this library: every module that logs imports it, and
  // a process that never starts telemetry (the CLI's --help, a test) should not pay for loading them.
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy loads, see above */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'],
    instrumentations: [new HttpInstrumentation(), new IORedisInstrumentation(), new PgInstrumentation()],
    ...(exporterConfigured(env) ? {} : { spanProcessors: [] }),
  });
  sdk.start();
  return sdk;
}

export async function stopTelemetry(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
