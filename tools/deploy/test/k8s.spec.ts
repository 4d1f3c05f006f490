import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig, OPS_PORTS, WorkerEnv, type OpsService } from '@dossier/config';
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
  image?: string;
  command?: string[];
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  initContainers?: Container[];
  containers: Container[];
}
const podSpec = (d: K8sObject) => (d.spec as { template: { spec: PodSpec } }).template.spec;
const allContainers = (o: K8sObject) => [...(podSpec(o).initContainers ?? []), ...podSpec(o).containers];

/** Every YAML document under k8s/, with its file: templates and local-config objects included. */
function manifestFiles(dir = path.join(ROOT, 'k8s')): { file: string; docs: Record<string, unknown>[] }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return manifestFiles(p);
    if (!/\.ya?ml$/.test(e.name)) return [];
    const docs = parseAllDocuments(readFileSync(p, 'utf8')).map((d) => d.toJS() as Record<string, unknown>);
    return [{ file: path.relative(ROOT, p), docs: docs.filter((d) => d !== null) }];
  });
}
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
          expect(c.resources?.limits?.['cpu']).toBeTruthy();
          expect(c.envFrom).toEqual(
            expect.arrayContaining([{ configMapRef: { name: 'dossier-config' } }, { secretRef: { name: 'dossier-secrets' } }]),
          );
        }
      }
      // Init containers and Job containers have limits too: nothing in the namespace runs unbounded.
      for (const o of [...of(objects, 'Deployment'), ...of(objects, 'Job')])
        for (const c of allContainers(o))
          expect({
            in: `${o.metadata.name}/${c.name}`,
            limits: Boolean(c.resources?.limits?.['cpu'] && c.resources.limits['memory']),
          }).toEqual({
            in: `${o.metadata.name}/${c.name}`,
            limits: true,
          });
      expect(
        objects.every((o) => o.kind === 'Namespace' || o.metadata.namespace === (dir.endsWith('dev') ? 'dossier-dev' : 'dossier')),
      ).toBe(true);
      const job = of(objects, 'Job').find((j) => j.metadata.labels?.['app.kubernetes.io/name'] === 'dossier-migrate');
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
    '%s: every service serves its metrics on its own ops port (the code default: METRICS_PORT unset), scraped only from the monitoring namespace',
    (dir) => {
      const objects = report[dir]!.objects;
      const config = of(objects, 'ConfigMap').find((c) => c.metadata.name === 'dossier-config')!;
      expect(config.data?.['METRICS_PORT']).toBeUndefined();
      for (const d of of(objects, 'Deployment')) {
        const service = d.metadata.name.replace(/^dossier-/, '') as OpsService;
        const port = OPS_PORTS[service];
        const template = (d.spec as { template: { metadata: { annotations?: Record<string, string> } } }).template;
        const main = podSpec(d).containers[0]!;
        expect({ service, scrape: template.metadata.annotations?.['prometheus.io/port'] }).toEqual({ service, scrape: String(port) });
        expect(main.ports).toContainEqual({ name: 'metrics', containerPort: port });
        const svc = of(objects, 'Service').find((o) => o.metadata.name === d.metadata.name) as unknown as {
          spec: { ports: { name: string; port: number; targetPort: string }[] };
        };
        expect(svc.spec.ports).toContainEqual({ name: 'metrics', port, targetPort: 'metrics' });
      }
      const scrape = of(objects, 'NetworkPolicy').find((p) => p.metadata.name.endsWith('metrics-scrape')) as unknown as {
        spec: { podSelector: { matchExpressions: { values: string[] }[] }; ingress: { ports: { port: unknown }[] }[] };
      };
      expect(scrape.spec.podSelector.matchExpressions[0]!.values).toEqual(expect.arrayContaining(['worker', 'conductor', 'gateway']));
      expect(scrape.spec.ingress[0]!.ports).toEqual([{ protocol: 'TCP', port: 'metrics' }]);
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

describe('the operator kit (k8s/): one image, a migration gate, monitoring, no secrets', () => {
  const overlays = ['k8s/overlays/dev', 'k8s/overlays/prod'];
  const { report } = check('k8s/base', ...overlays);
  const base = parse(readFileSync(path.join(ROOT, 'k8s/base/kustomization.yaml'), 'utf8')) as {
    images: { name: string; newName: string; newTag: string }[];
  };
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  it('the image comes from one place: k8s/base/kustomization.yaml, tagged with the package version', () => {
    expect(base.images).toEqual([{ name: 'dossier', newName: 'ghcr.io/dossier-research/dossier', newTag: version }]);
    const image = `${base.images[0]!.newName}:${base.images[0]!.newTag}`;
    for (const dir of ['k8s/base', ...overlays]) {
      const workloads = [...of(report[dir]!.objects, 'Deployment'), ...of(report[dir]!.objects, 'Job')];
      expect(workloads.length).toBe(11);
      for (const o of workloads)
        for (const c of allContainers(o))
          expect({ dir, in: `${o.metadata.name}/${c.name}`, image: c.image }).toEqual({ dir, in: `${o.metadata.name}/${c.name}`, image });
    }
    // No manifest names an image itself: each says `dossier`, which `images` resolves.
    const named = manifestFiles().flatMap(({ file, docs }) =>
      docs.flatMap((d) => [...JSON.stringify(d).matchAll(/"image":"([^"]+)"/g)].map((m) => `${file}: ${m[1]}`)),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((n) => !n.endsWith(': dossier'))).toEqual([]);
  });

  it.each(overlays)('%s: the migration gate: a Job named after the image tag, and every pod waits for the schema it needs', (dir) => {
    const objects = report[dir]!.objects;
    const jobs = of(objects, 'Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual([`dossier-bootstrap-${version}`, `dossier-migrate-${version}`]);
    const gated = [...of(objects, 'Deployment'), ...jobs.filter((j) => j.metadata.name.startsWith('dossier-bootstrap'))];
    expect(gated.length).toBe(10);
    for (const o of gated) {
      const init = podSpec(o).initContainers ?? [];
      expect({ name: o.metadata.name, init: init.map((c) => [c.name, ...(c.args ?? [])]) }).toEqual({
        name: o.metadata.name,
        init: [['wait-for-schema', 'apps/cli/src/main.ts', 'admin', 'schema', '--wait', '600']],
      });
    }
    // The migration Job itself waits for nothing: it is what the others wait for.
    const migrate = jobs.find((j) => j.metadata.name.startsWith('dossier-migrate'))!;
    expect(podSpec(migrate).initContainers).toBeUndefined();
    // The bootstrap Job creates the first tenant with the CLI, nothing else.
    const bootstrap = jobs.find((j) => j.metadata.name.startsWith('dossier-bootstrap'))!;
    expect(podSpec(bootstrap).containers[0]!.args).toEqual(['apps/cli/src/main.ts', 'admin', 'bootstrap', '$(DOSSIER_FIRST_TENANT)']);
  });

  it('prod: the PodMonitor of the monitoring component scrapes every service on its metrics port; KEDA reads the one Prometheus address', () => {
    const objects = report['k8s/overlays/prod']!.objects;
    const monitors = of(objects, 'PodMonitor') as unknown as {
      metadata: { name: string };
      spec: { selector: { matchExpressions: { key: string; values: string[] }[] }; podMetricsEndpoints: { port: string; path: string }[] };
    }[];
    expect(monitors).toHaveLength(1);
    const component = parse(readFileSync(path.join(ROOT, 'k8s/components/monitoring/kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    expect(component.resources).toEqual(['pod-monitor.yaml']);
    const [monitor] = monitors;
    expect(monitor!.spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
    const selected = monitor!.spec.selector.matchExpressions[0]!;
    expect(selected.key).toBe('app.kubernetes.io/component');
    for (const d of of(objects, 'Deployment')) {
      expect(selected.values).toContain(d.metadata.labels?.['app.kubernetes.io/component']);
      expect(podSpec(d).containers[0]!.ports?.some((p) => p.name === 'metrics')).toBe(true);
    }
    const address = (parse(readFileSync(path.join(ROOT, 'k8s/overlays/prod/prometheus.yaml'), 'utf8')) as { data: { address: string } })
      .data.address;
    const scaled = of(objects, 'ScaledObject') as unknown as { spec: { triggers: { metadata: { serverAddress: string } }[] } }[];
    expect(scaled).toHaveLength(SERVICE_NAMES.length);
    for (const so of scaled) expect(so.spec.triggers[0]!.metadata.serverAddress).toBe(address);
    // The address's ConfigMap is local: read by the renderer, never applied.
    expect(of(objects, 'ConfigMap').map((c) => c.metadata.name)).toEqual(['dossier-config']);
  });

  it('the Grafana dashboard queries only metrics the code exports, and covers runs, steps, queues, model spend and errors', () => {
    const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'k8s/components/monitoring/grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    // Every metric name the code registers (prom-client constructors name them in one literal).
    const sources = ['libs/telemetry/src/metrics/metrics.ts', 'apps/gateway/src/health/gateway-metrics.ts'].map((f) =>
      readFileSync(path.join(ROOT, f), 'utf8'),
    );
    const exported = new Set(sources.flatMap((text) => [...text.matchAll(/name: '(dossier_\w+)'/g)].map((m) => m[1]!)));
    expect(exported.size).toBeGreaterThan(8);
    const queried = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((t) => [...t.expr.matchAll(/\b(dossier_\w+|process_\w+)/g)].map((m) => m[1]!)),
    );
    for (const name of queried) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      expect({ name, exported: exported.has(base) || name === 'process_resident_memory_bytes' }).toEqual({ name, exported: true });
    }
    for (const needed of [
      'dossier_runs',
      'dossier_step_duration_seconds',
      'dossier_queue_backlog',
      'dossier_llm_cost_usd_total',
      'dossier_step_failures_total',
    ])
      expect(queried.map((n) => n.replace(/_(bucket|count|sum)$/, ''))).toContain(needed);
    expect(queried.some((n) => n === 'dossier_gateway_http_requests_total')).toBe(true);
  });

  it('prod: an Ingress with TLS for the hosts it routes, to the gateway API port', () => {
    const [ingress] = of(report['k8s/overlays/prod']!.objects, 'Ingress') as unknown as {
      spec: {
        tls: { hosts: string[]; secretName: string }[];
        rules: { host: string; http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[];
      };
    }[];
    expect(ingress!.spec.tls[0]!.secretName).toBeTruthy();
    expect(ingress!.spec.tls.flatMap((t) => t.hosts).sort()).toEqual(ingress!.spec.rules.map((r) => r.host).sort());
    for (const rule of ingress!.spec.rules)
      for (const p of rule.http.paths) expect(p.backend.service).toEqual({ name: 'dossier-gateway', port: { name: 'http' } });
  });

  it('no Secret holds a real value: prod renders none, dev and the template hold only placeholders and password-less URLs', () => {
    expect(of(report['k8s/overlays/prod']!.objects, 'Secret')).toEqual([]);
    const secrets = manifestFiles().flatMap(({ file, docs }) =>
      docs
        .filter((d) => d['kind'] === 'Secret')
        .map((d) => ({ file, values: { ...(d['stringData'] as object), ...(d['data'] as object) } as Record<string, string> })),
    );
    expect(secrets.map((s) => s.file).sort()).toEqual(['k8s/overlays/dev/secret.yaml', 'k8s/overlays/prod/secret.template.yaml']);
    for (const { file, values } of secrets) {
      for (const [key, value] of Object.entries(values)) {
        const where = `${file}: ${key}`;
        if (/^[a-z]+:\/\//.test(value)) {
          const password = new URL(value).password;
          expect({ where, password: password === '' || password === 'CHANGE-ME' }).toEqual({ where, password: true });
        } else {
          // Keys, tokens, passwords: blank (unset) or an obvious placeholder.
          expect({ where, placeholder: value === '' || value.includes('CHANGE-ME') }).toEqual({ where, placeholder: true });
        }
      }
    }
    // The template is applied by hand, never by kustomize.
    const listed = manifestFiles().flatMap(({ docs }) => docs.flatMap((d) => (d['resources'] as string[] | undefined) ?? []));
    expect(listed.filter((r) => r.includes('secret.template'))).toEqual([]);
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

  it('replacements run after images and may read a local-config object, which is left out of the output', () => {
    write('r/base/kustomization.yaml', 'resources: [web.yaml, job.yaml]\nimages: [{ name: example/web, newTag: "7.1" }]\n');
    write('r/base/web.yaml', deployment('1'));
    write(
      'r/base/job.yaml',
      'apiVersion: batch/v1\nkind: Job\nmetadata: { name: run-x, labels: { app: run } }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{ name: run, image: "example/web:1" }]\n',
    );
    write(
      'r/over/address.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: where\n  annotations: { config.kubernetes.io/local-config: "true" }\ndata: { url: "http://x:1" }\n',
    );
    write(
      'r/over/kustomization.yaml',
      [
        'resources: [address.yaml, ../base]',
        'images: [{ name: example/web, newName: reg.example/web, newTag: "8.2" }]',
        'replacements:',
        '  - source: { kind: Deployment, name: web, fieldPath: "spec.template.spec.containers.[name=web].image", options: { delimiter: ":", index: 1 } }',
        '    targets:',
        '      - select: { kind: Job, labelSelector: app=run }',
        '        fieldPaths: [metadata.name]',
        '        options: { delimiter: "-", index: 1 }',
        '  - source: { kind: ConfigMap, name: where, fieldPath: data.url }',
        '    targets: [{ select: { kind: Deployment }, fieldPaths: ["spec.template.spec.containers.0.env.0.value"] }]',
        '',
      ].join('\n'),
    );
    const { status, report } = check(path.join(dir, 'r/over'));
    expect(report[path.join(dir, 'r/over')]!.errors).toEqual([]);
    expect(status).toBe(0);
    const objects = report[path.join(dir, 'r/over')]!.objects as unknown as {
      kind: string;
      metadata: { name: string };
      spec: { template: { spec: { containers: { image: string; env?: { value: string }[] }[] } } };
    }[];
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(['Deployment/web', 'Job/run-8.2']);
    const web = objects.find((o) => o.kind === 'Deployment')!;
    expect(web.spec.template.spec.containers[0]!.image).toBe('reg.example/web:8.2');
    expect(web.spec.template.spec.containers[0]!.env![0]!.value).toBe('http://x:1');
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
