import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SERVICE_NAMES } from '@dossier/contracts';

const ROOT = path.resolve(__dirname, '../../..');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

/** docker-compose.yml as Compose reads it (YAML 1.1 merge keys on), no Docker needed. */
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
const dossier = ['conductor', 'gateway', ...SERVICE_NAMES];

describe('docker-compose.yml', () => {
  it('has the data services, Jaeger, the migration job, the gateway, the conductor and every worker', () => {
    expect(Object.keys(services).sort()).toEqual(['jaeger', 'migrate', 'postgres', 'qdrant', 'redis', ...dossier].sort());
  });

  it('Redis keeps an append-only file and never evicts', () => {
    const cmd = services['redis']!.command!.join(' ');
    expect(cmd).toMatch(/--appendonly yes/);
    expect(cmd).toMatch(/--maxmemory-policy noeviction/);
  });

  it('every Dossier service runs its own entry point from the one image, after healthy data services and completed migrations', () => {
    for (const name of dossier) {
      const s = services[name]!;
      expect({ name, command: s.command }).toEqual({ name, command: [`apps/${name}/src/main.ts`] });
      expect(s.image).toBe(services['migrate']!.image);
      expect(s.depends_on).toMatchObject({
        redis: { condition: 'service_healthy' },
        postgres: { condition: 'service_healthy' },
        qdrant: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(s.healthcheck?.test.join(' ')).toMatch(/\/readyz/);
      expect(s.environment).toMatchObject({
        OTEL_SERVICE_NAME: `dossier-${name}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318',
        QDRANT_URL: 'http://qdrant:6333',
      });
      // Compose's SIGKILL comes after stop_grace_period: it must exceed the worker's own shutdown grace.
      expect(Number.parseInt(s.stop_grace_period ?? '10s', 10) * 1000).toBeGreaterThan(Number(s.environment?.['SHUTDOWN_GRACE_MS']));
    }
    expect(services['gateway']!.depends_on).toMatchObject({ conductor: { condition: 'service_healthy' } });
    expect(services['migrate']!.entrypoint).toEqual(['bash', 'tools/prisma.sh', 'migrate', 'deploy']);
    expect(services['migrate']!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('data services have health checks', () => {
    for (const name of ['redis', 'postgres', 'qdrant']) expect(services[name]!.healthcheck?.test.length).toBeGreaterThan(0);
  });
});

describe('Dockerfile', () => {
  const text = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const stages = [...text.matchAll(/^FROM\s+\S+(?:\s+AS\s+(\S+))?/gim)].map((m) => m[1]);

  it('is multi-stage: dependencies, build, and a runtime stage that runs as non-root', () => {
    expect(stages).toEqual(['deps', 'build', 'runtime']);
    const runtime = text.slice(text.search(/^FROM .* AS runtime/im));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/COPY --from=build/);
  });

  it('the command chooses the service: the entrypoint is node with the TypeScript loader, the command an app entry point that exists', () => {
    expect(text).toMatch(/^ENTRYPOINT \["node", "--enable-source-maps", "-r", "\.\/tools\/ts-register\.cjs"\]$/m);
    expect(text).toMatch(/^CMD \["apps\/gateway\/src\/main\.ts"\]$/m);
    for (const name of ['conductor', ...SERVICE_NAMES])
      expect(() => readFileSync(path.join(ROOT, 'apps', name, 'src/main.ts'))).not.toThrow();
  });

  it('builds and migrates with the schema engine in the repository: nothing but npm packages is downloaded', () => {
    const deps = text.slice(text.search(/^FROM .* AS deps/im), text.search(/^FROM .* AS build/im));
    // The root postinstall (prisma generate) needs sources the deps stage does not have yet; the build stage runs it.
    expect(deps).toMatch(/npm ci [^\n]*--ignore-scripts/);
    expect(text).toMatch(/^RUN bash tools\/prisma\.sh generate/m);
    const engine = /PRISMA_SCHEMA_ENGINE_BINARY=\/app\/(\S+)/.exec(text.slice(text.search(/^FROM .* AS runtime/im)));
    expect(engine?.[1]).toBe('tools/prisma-offline/schema-engine.mjs');
    expect(statSync(path.join(ROOT, engine![1]!)).mode & 0o111).not.toBe(0);
    const ignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignore.filter((line) => /^(tools|prisma)\b/.test(line))).toEqual([]);
  });

  it('.dockerignore keeps dependencies, git and local state out of the build context', () => {
    const ignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', '.git', '.dossier', '.env']));
  });
});
