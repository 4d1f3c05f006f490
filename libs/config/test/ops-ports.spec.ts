import { SERVICE_NAMES } from '@dossier/contracts';
import { ConfigError } from '@dossier/errors';
import { loadConfig, OPS_PORTS, opsPortFor, WorkerEnv } from '../src';

describe('ops ports (METRICS_PORT defaults)', () => {
  it('gives the gateway, the conductor and every stage worker a port of its own', () => {
    expect(Object.keys(OPS_PORTS).sort()).toEqual(['gateway', 'conductor', ...SERVICE_NAMES].sort());
    const ports = Object.values(OPS_PORTS);
    expect(new Set(ports).size).toBe(ports.length);
    // The gateway keeps the port every process had before, so existing scrape configs still find it.
    expect(OPS_PORTS.gateway).toBe(9464);
  });

  it('METRICS_PORT, when set, wins (0 turns the server off); unset, the service default applies', () => {
    const base = { DATABASE_URL: 'postgresql://x@db/dossier', REDIS_URL: 'redis://redis:6379' };
    expect(opsPortFor('planner', loadConfig(WorkerEnv, base).METRICS_PORT)).toBe(OPS_PORTS.planner);
    expect(opsPortFor('planner', loadConfig(WorkerEnv, { ...base, METRICS_PORT: '9999' }).METRICS_PORT)).toBe(9999);
    expect(opsPortFor('renderer', loadConfig(WorkerEnv, { ...base, METRICS_PORT: '0' }).METRICS_PORT)).toBe(0);
  });

  it('a process with no default port must be told one, by name', () => {
    expect(() => opsPortFor('test-worker', undefined)).toThrow(ConfigError);
    expect(() => opsPortFor('test-worker', undefined)).toThrow('METRICS_PORT: required for "test-worker"');
  });
});
