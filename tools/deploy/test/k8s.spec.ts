import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, WorkerEnv } from '@dossier/config';
import { SERVICE_NAMES } from '@dossier/contracts';

const ROOT = path.resolve(__dirname, '../../..');
const CHECK = path.join(ROOT, 'tools/deploy/k8s-check.mjs');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
type Report = Record<string, { objects: K8sObject[]; errors: string[] }>;

/** Renders and validates with the CI tool (plain node: the schema packages are ESM-only). */
function check(...dirs: string[]): { status: number | null; report: Report } {
  const r = spawnSync(process.execPath, [CHECK, '--json', ...dirs], { cwd: ROOT, encoding: 'utf8' });
  if (!r.stdout) throw new Error(`k8s-check printed nothing: ${r.stderr}`);
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

interface Container {
  name: string;
  args?: string[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  containers: Container[];
}
const podSpec = (d: K8sObject) => (d.spec as { template: { spec: PodSpec } }).template.spec;
const of = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

describe('Kubernetes manifests (k8s/): rendered like kustomize, validated against the Kubernetes and KEDA schemas', () => {
  const dirs = ['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod'];
  const { status, report } = check(...dirs);

  it.each(dirs)('%s renders and every object matches its schema', (dir) => {
    expect(report[dir]!.errors).toEqual([]);
    expect(report[dir]!.objects.length).toBeGreaterThan(30);
    expect(status).toBe(0);
  });

  it.each(['k8s/overlays/dev', 'k8s/overlays/prod'])(
    '%s: a Deployment, Service and PodDisruptionBudget per service, probes, resources, config and secret references',
    (dir) => {
      const objects = report[dir]!.objects;
      const names = ['gateway', 'conductor', ...SERVICE_NAMES].map((s) => `dossier-${s}`);
      for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget'])
        expect(
          of(objects, kind)
            .map((o) => o.metadata.name)
            .sort(),
        ).toEqual([...names].sort());
      for (const d of of(objects, 'Deployment')) {
        for (const c of podSpec(d).containers) {
          expect({ name: d.metadata.name, liveness: c.livenessProbe?.httpGet?.path, readiness: c.readinessProbe?.httpGet?.path }).toEqual({
            name: d.metadata.name,
            liveness: '/healthz',
            readiness: '/readyz',
          });
          expect(c.resources?.requests?.['cpu'] && c.resources.requests['memory'] && c.resources.limits?.['memory']).toBeTruthy();
          expect(c.envFrom).toEqual(
            expect.arrayContaining([{ configMapRef: { name: 'dossier-config' } }, { secretRef: { name: 'dossier-secrets' } }]),
          );
        }
      }
      expect(
        objects.every((o) => o.kind === 'Namespace' || o.metadata.namespace === (dir.endsWith('dev') ? 'dossier-dev' : 'dossier')),
      ).toBe(true);
      const job = of(objects, 'Job').find((j) => j.metadata.name === 'dossier-migrate');
      // The same migration path as development, CI and compose: no schema-engine download in the cluster.
      expect(JSON.stringify(job)).toContain('"command":["bash","tools/prisma.sh","migrate","deploy"]');
    },
  );

  it.each(['k8s/overlays/dev', 'k8s/overlays/prod'])(
    '%s: workers get more time to stop than the shutdown grace their settings give them',
    (dir) => {
      const objects = report[dir]!.objects;
      const config = of(objects, 'ConfigMap').find((c) => c.metadata.name === 'dossier-config')!;
      // The engine's own reading of the ConfigMap (with placeholder secrets): what a worker would run with.
      const env = loadConfig(WorkerEnv, { ...config.data, DATABASE_URL: 'postgresql://x@db/dossier', REDIS_URL: 'redis://redis:6379' });
      for (const service of [...SERVICE_NAMES, 'conductor']) {
        const d = of(objects, 'Deployment').find((o) => o.metadata.name === `dossier-${service}`)!;
        const grace = podSpec(d).terminationGracePeriodSeconds ?? 30;
        expect(grace * 1000).toBeGreaterThanOrEqual(env.SHUTDOWN_GRACE_MS + 5_000);
        expect(podSpec(d).containers[0]!.args).toEqual([`apps/${service}/src/main.ts`]);
      }
    },
  );

  it('prod: every worker has a KEDA ScaledObject on its queue backlog (waiting + prioritized + delayed) with a fallback', () => {
    const objects = report['k8s/overlays/prod']!.objects;
    const scaled = of(objects, 'ScaledObject');
    for (const service of SERVICE_NAMES) {
      const so = scaled.find((s) => s.metadata.name === `dossier-${service}`);
      const spec = so?.spec as {
        scaleTargetRef: { name: string };
        fallback?: { replicas: number };
        triggers: { type: string; metadata: { query: string } }[];
      };
      expect(spec.scaleTargetRef.name).toBe(`dossier-${service}`);
      expect(spec.fallback?.replicas).toBeGreaterThan(0);
      expect(spec.triggers).toEqual([
        expect.objectContaining({
          type: 'prometheus',
          metadata: expect.objectContaining({ query: `max(dossier_queue_backlog{queue="${service}"})` }),
        }),
      ]);
    }
    expect(of(objects, 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('dev: CPU HorizontalPodAutoscalers instead of KEDA (never both on one Deployment)', () => {
    const objects = report['k8s/overlays/dev']!.objects;
    expect(
      of(objects, 'HorizontalPodAutoscaler')
        .map((h) => h.metadata.name)
        .sort(),
    ).toEqual(SERVICE_NAMES.map((s) => `dossier-${s}`).sort());
    expect(of(objects, 'ScaledObject')).toEqual([]);
  });

  it.each(['k8s/overlays/dev', 'k8s/overlays/prod'])(
    '%s: Prometheus scrapes every service on its ops port (9464, from the monitoring namespace), never the public API port',
    (dir) => {
      const objects = report[dir]!.objects;
      for (const d of of(objects, 'Deployment')) {
        const template = (d.spec as { template: { metadata: { annotations?: Record<string, string> } } }).template;
        const annotations = template.metadata.annotations ?? {};
        const ports = (podSpec(d).containers[0] as Container & { ports?: { name: string; containerPort: number }[] }).ports ?? [];
        expect({ name: d.metadata.name, scrape: annotations['prometheus.io/port'] }).toEqual({ name: d.metadata.name, scrape: '9464' });
        expect(ports).toContainEqual({ name: 'metrics', containerPort: 9464 });
      }
      const scrape = of(objects, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('metrics-scrape')) as unknown as {
        spec: { podSelector: { matchExpressions: { values: string[] }[] } };
      };
      expect(scrape.spec.podSelector.matchExpressions[0]!.values).toEqual(expect.arrayContaining(['worker', 'conductor', 'gateway']));
    },
  );

  it('network policies: default deny; workers reach only DNS, Redis, Postgres, Qdrant, the trace collector and public 80/443', () => {
    const objects = report['k8s/overlays/prod']!.objects;
    const policies = of(objects, 'NetworkPolicy') as unknown as {
      metadata: { name: string };
      spec: {
        podSelector: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; values: string[] }[] };
        policyTypes: string[];
        egress?: { to?: { ipBlock?: { cidr: string; except?: string[] } }[]; ports?: { port: number }[] }[];
      };
    }[];
    const deny = policies.find(
      (p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.egress && p.spec.policyTypes.includes('Egress'),
    );
    expect(deny).toBeDefined();
    const selectsWorkers = (p: (typeof policies)[number]) =>
      Object.keys(p.spec.podSelector).length === 0 ||
      p.spec.podSelector.matchLabels?.['app.kubernetes.io/component'] === 'worker' ||
      (p.spec.podSelector.matchExpressions ?? []).some((e) => e.key === 'app.kubernetes.io/component' && e.values.includes('worker'));
    const egress = policies.filter(selectsWorkers).flatMap((p) => p.spec.egress ?? []);
    const ports = new Set(egress.flatMap((e) => (e.ports ?? []).map((p) => p.port)));
    expect([...ports].sort((a, b) => a - b)).toEqual([53, 80, 443, 4318, 5432, 6333, 6379]);
    for (const rule of egress) {
      for (const to of rule.to ?? []) {
        if (to.ipBlock)
          expect(to.ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']));
      }
    }
  });
});

describe('the kustomize renderer itself', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-k8s-'));
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const deployment = (replicas: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec:\n  replicas: ${replicas}\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web } }\n    spec:\n      containers:\n        - { name: web, image: "example/web:1", env: [{ name: A, value: "1" }] }\n`;

  it('applies namespace, labels, images and strategic-merge patches (containers merged by name)', () => {
    write('m/base/kustomization.yaml', 'resources: [web.yaml]\nlabels:\n  - pairs: { team: x }\n    includeTemplates: true\n');
    write('m/base/web.yaml', deployment('1'));
    write(
      'm/over/kustomization.yaml',
      'namespace: ns\nresources: [../base]\nimages: [{ name: example/web, newTag: "2" }]\npatches: [{ path: p.yaml }]\n',
    );
    write(
      'm/over/p.yaml',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - { name: web, env: [{ name: B, value: "2" }] }\n',
    );
    const { status, report } = check(path.join(dir, 'm/over'));
    expect(status).toBe(0);
    const [d] = report[path.join(dir, 'm/over')]!.objects as unknown as {
      metadata: { namespace: string; labels: Record<string, string> };
      spec: {
        replicas: number;
        template: { metadata: { labels: Record<string, string> }; spec: { containers: { image: string; env: unknown[] }[] } };
      };
    }[];
    expect(d!.metadata.namespace).toBe('ns');
    expect(d!.metadata.labels).toEqual({ team: 'x' });
    expect(d!.spec.template.metadata.labels).toEqual({ app: 'web', team: 'x' });
    expect(d!.spec.replicas).toBe(3);
    expect(d!.spec.template.spec.containers[0]!.image).toBe('example/web:2');
    expect(d!.spec.template.spec.containers[0]!.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
  });

  it('reports an object that breaks its schema, and a kustomize feature it does not implement', () => {
    write('bad/kustomization.yaml', 'resources: [web.yaml]\n');
    write('bad/web.yaml', deployment('"three"'));
    write('unsupported/kustomization.yaml', 'resources: []\nconfigMapGenerator: [{ name: x }]\n');
    const { status, report } = check(path.join(dir, 'bad'), path.join(dir, 'unsupported'));
    expect(status).toBe(1);
    expect(report[path.join(dir, 'bad')]!.errors.join('\n')).toMatch(/Deployment\/web: .*replicas must be integer/);
    expect(report[path.join(dir, 'unsupported')]!.errors.join('\n')).toMatch(/unsupported kustomization field\(s\) configMapGenerator/);
  });
});
