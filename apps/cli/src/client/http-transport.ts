import { GatewayHttp, HttpClient, type DossierClient } from '@dossier/client';
import { walkPaths } from '@dossier/sources';

/** The gateway transport with the local file walker for `ingest`; loaded lazily (ingestion's walker is large). */
export function openHttpClient(http: GatewayHttp): DossierClient {
  return new HttpClient(http, walkPaths);
}
