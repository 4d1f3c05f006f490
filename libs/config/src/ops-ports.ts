import type { ServiceName } from '@dossier/contracts';
import { ConfigError } from '@dossier/errors';

/** Every long-running Dossier process: the gateway, the conductor and one worker per stage. */
export type OpsService = 'gateway' | 'conductor' | ServiceName;

/**
 * Each process's default ops port (`/metrics`, `/healthz`, `/readyz`) when METRICS_PORT is not set. One port per
 * service, so the whole system can run on one machine (by hand, under systemd) without two processes fighting over a
 * port. Containers keep these numbers too (docker-compose.yml, k8s/): one table for operators to read.
 */
export const OPS_PORTS: Readonly<Record<OpsService, number>> = {
  gateway: 9464,
  conductor: 9465,
  planner: 9466,
  searcher: 9467,
  extractor: 9468,
  claims: 9469,
  writer: 9470,
  verifier: 9471,
  renderer: 9472,
};

/** The ops port a process listens on: METRICS_PORT when set (0 = no server), otherwise its service's own. */
export function opsPortFor(service: string, metricsPort: number | undefined): number {
  if (metricsPort !== undefined) return metricsPort;
  const port = (OPS_PORTS as Readonly<Record<string, number>>)[service];
  if (port === undefined) throw new ConfigError(`METRICS_PORT: required for "${service}", which has no default ops port`);
  return port;
}
