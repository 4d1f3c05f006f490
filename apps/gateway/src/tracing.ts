import { startTelemetry } from '@dossier/telemetry';

// Imported first by main.ts: instrumentation must patch pg, ioredis and http before they are loaded.
startTelemetry('gateway');
