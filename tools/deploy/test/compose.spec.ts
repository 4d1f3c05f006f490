import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { OPS_PORTS, type OpsService } from '@dossier/config';
import { SERVICE_NAMES } from '@dossier/contracts';

const ROOT = path.resolve(__dirname, '../../..');

interface ComposeService {
  image?: string;
  ports?: string[];
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

/** docker-compose.yml as Compose reads it (YAML 1.1 merge keys on), no Docker needed. */
const readCompose = (file: string) =>
  parse(readFileSync(path.join(ROOT, file), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
const compose = readCompose('docker-compose.yml');

/** The host address a published port binds, as Compose reads `[HOST:]HOST_PORT:CONTAINER_PORT` (defaults applied). */
function hostAddress(port: string): string {
  const resolved = port.replace(/\$\{(\w+):-([^}]*)\}/g, (_, _name: string, fallback: string) => fallback);
  const parts = resolved.split(':');
  return parts.length === 3 ? parts[0]! : '0.0.0.0';
}
const services = compose.services;
const dossier = ['conductor', 'gateway', ...SERVICE_NAMES];

describe('docker-compose.yml', () => {
  it('has the data services, Jaeger, the migration job, the gateway, the conductor and every worker', () => {
    expect(Object.keys(services).sort()).toEqual(['bootstrap', 'jaeger', 'migrate', 'postgres', 'qdrant', 'redis', ...dossier].sort());
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
      // Each service on its own ops port, the one the code gives it when METRICS_PORT is unset.
      expect({ name, port: s.environment?.['METRICS_PORT'] }).toEqual({ name, port: String(OPS_PORTS[name as OpsService]) });
      if (name !== 'gateway') expect(s.healthcheck?.test.join(' ')).toContain("process.env.METRICS_PORT + '/readyz'");
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

  it('no database is published on the host by default, and nothing on every interface unless asked', () => {
    for (const name of ['redis', 'postgres', 'qdrant']) expect({ name, ports: services[name]!.ports }).toEqual({ name, ports: undefined });
    const published = Object.entries(services).flatMap(([name, s]) => (s.ports ?? []).map((p) => ({ name, address: hostAddress(p) })));
    expect(published.map((p) => p.name).sort()).toEqual(['gateway', 'jaeger', 'jaeger']);
    for (const p of published) expect(p).toEqual({ name: p.name, address: '127.0.0.1' });
    // The development addition publishes the data services for `npm test` and the live Qdrant tests, on loopback only.
    const dev = readCompose('docker-compose.dev.yml').services;
    expect(Object.keys(dev).sort()).toEqual(['postgres', 'qdrant', 'redis']);
    for (const s of Object.values(dev)) for (const p of s.ports ?? []) expect(hostAddress(p)).toBe('127.0.0.1');
  });

  it('a bootstrap service creates the first tenant with the CLI once migrations are done', () => {
    const b = services['bootstrap']!;
    expect(b.image).toBe(services['migrate']!.image);
    expect(b.command).toEqual(['apps/cli/src/main.ts', 'admin', 'bootstrap', '${DOSSIER_FIRST_TENANT:-default}']);
    expect(b.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    expect(b.environment?.['DATABASE_URL']).toBe(services['migrate']!.environment?.['DATABASE_URL']);
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

  it('npm run image builds the runtime target tagged with the package version; multi-arch goes through buildx to a registry', () => {
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const image = (...args: string[]) => spawnSync('bash', [path.join(ROOT, 'tools/image.sh'), '--dry-run', ...args], { encoding: 'utf8' });
    const local = image();
    expect(local.status).toBe(0);
    expect(local.stdout).toContain(`+ docker build --target runtime --tag ghcr.io/dossier-research/dossier:${version} .`);
    expect(local.stdout).not.toContain('docker push');
    const multi = image('--registry', 'registry.example.com/team', '--platform', 'linux/amd64,linux/arm64', '--push');
    expect(multi.stdout).toContain(
      `+ docker buildx build --target runtime --platform linux/amd64,linux/arm64 --tag registry.example.com/team/dossier:${version} --push .`,
    );
    // A multi-arch image can only live in a registry; a tag with '-' would break the migration Job's name.
    expect(image('--platform', 'linux/arm64').stderr).toMatch(/needs --push/);
    expect(image('--tag', '1.0-rc1').stderr).toMatch(/tag "1.0-rc1" must be letters, digits and dots/);
  });

  it('.dockerignore keeps dependencies, git and local state out of the build context', () => {
    const ignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', '.git', '.dossier', '.env']));
  });
});
