import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

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
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): NodeSDK | undefined {
  if (sdk || env['OTEL_SDK_DISABLED'] === 'true') return sdk;
  env['OTEL_SERVICE_NAME'] ??= `dossier-${serviceName}`;
  // Metrics and logs go through Prometheus and pino, not OTLP (issue 7 decides otherwise if needed).
  env['OTEL_METRICS_EXPORTER'] ??= 'none';
  env['OTEL_LOGS_EXPORTER'] ??= 'none';
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
