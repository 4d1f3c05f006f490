import { GatewayHttp, HttpClient, type DossierClient } from '@dossier/client';

/** The gateway transport with the local file walker for `ingest`; loaded lazily (ingestion's walker is large). */
export function openHttpClient(http: GatewayHttp): DossierClient {
  // Required, not imported: @dossier/sources is a lazy library of the CLI (Nx forbids a static import of it).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { walkPaths } = require('@dossier/sources') as typeof import('@dossier/sources');
  return new HttpClient(http, walkPaths);
}
