import { z } from 'zod';

/**
 * Where logs and traces go. The OTEL_* variables are OpenTelemetry's own (the NodeSDK reads them, libs/telemetry's
 * startTelemetry fills in the defaults below); declared here so that they are documented with the rest.
 */
export const TelemetryEnv = z.object({
  LOG_DESTINATION: z
    .string()
    .optional()
    .describe(
      'stderr: JSON logs on stderr; a file path: appended to that file (the CLI: .dossier/dossier.log unless LOG_LEVEL is set); unset: stdout',
    ),
  OTEL_SDK_DISABLED: z.string().optional().describe('true: no OpenTelemetry SDK, no spans'),
  OTEL_SERVICE_NAME: z.string().optional().describe('Service name on spans; unset: dossier-SERVICE (dossier-gateway, dossier-planner…)'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .optional()
    .describe('OTLP collector: spans are exported when this (or a traces endpoint or exporter) is set'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional().describe('OTLP endpoint for traces alone'),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.string().optional().describe('http/protobuf (default) or http/json'),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional().describe('Headers sent to the collector (redacted from logs and errors)'),
  OTEL_TRACES_EXPORTER: z.string().optional().describe('Traces exporter (otlp, console, none); setting it turns export on'),
  OTEL_TRACES_SAMPLER: z.string().optional().describe("Sampler of new traces (OpenTelemetry's names); unset: parentbased_always_on"),
  OTEL_METRICS_EXPORTER: z.string().optional().describe('Unset: none (metrics go to Prometheus on the ops port)'),
  OTEL_LOGS_EXPORTER: z.string().optional().describe('Unset: none (logs are pino JSON lines)'),
});
export type TelemetryEnv = z.infer<typeof TelemetryEnv>;
