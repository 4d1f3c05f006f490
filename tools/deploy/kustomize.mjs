// A small kustomize renderer for CI, where there is no kustomize binary and no network. It implements
// exactly the subset our manifests use, and refuses anything else, so a manifest that relies on a feature
// it lacks fails loudly instead of rendering wrong. Supported (kustomize.config.k8s.io/v1beta1):
//   resources (files, multi-document YAML, or directories holding a kustomization), components
//   (kind: Component; their resources and patches), namespace, labels (pairs, includeSelectors: false,
//   includeTemplates), images (name → newName/newTag), patches (path: strategic merge, matched by
//   kind + metadata.name; maps merge, lists of named items merge by name, other lists are replaced,
//   null deletes a key).
import { readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const KUSTOMIZATION_KEYS = new Set(['apiVersion', 'kind', 'resources', 'components', 'namespace', 'labels', 'images', 'patches']);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
]);
const POD_TEMPLATE_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

export class KustomizeError extends Error {}

function readYaml(file) {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new KustomizeError(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

function kustomizationIn(dir) {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  throw new KustomizeError(`${dir}: no kustomization.yaml`);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Strategic merge, in the simple form our patches need. */
export function strategicMerge(base, patch) {
  if (!isObject(base) || !isObject(patch)) return structuredClone(patch);
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete out[key];
    } else if (
      Array.isArray(value) &&
      Array.isArray(out[key]) &&
      [...value, ...out[key]].every((x) => isObject(x) && typeof x.name === 'string')
    ) {
      const merged = out[key].map((item) => {
        const p = value.find((x) => x.name === item.name);
        return p ? strategicMerge(item, p) : item;
      });
      for (const p of value) if (!out[key].some((x) => x.name === p.name)) merged.push(structuredClone(p));
      out[key] = merged;
    } else if (isObject(value) && isObject(out[key])) {
      out[key] = strategicMerge(out[key], value);
    } else {
      out[key] = structuredClone(value);
    }
  }
  return out;
}

function applyPatches(objects, patches, dir, file) {
  for (const entry of patches ?? []) {
    if (!isObject(entry) || typeof entry.path !== 'string' || Object.keys(entry).some((k) => k !== 'path')) {
      throw new KustomizeError(`${file}: only "patches: - path: FILE" (strategic merge) is supported, got ${JSON.stringify(entry)}`);
    }
    for (const patch of readYaml(path.join(dir, entry.path))) {
      const i = objects.findIndex((o) => o.kind === patch.kind && o.metadata?.name === patch.metadata?.name);
      if (i < 0)
        throw new KustomizeError(`${file}: patch ${entry.path} targets ${patch.kind}/${patch.metadata?.name}, which no resource defines`);
      objects[i] = strategicMerge(objects[i], patch);
    }
  }
}

function addLabels(obj, labels) {
  for (const entry of labels ?? []) {
    const unknown = Object.keys(entry).filter((k) => !['pairs', 'includeSelectors', 'includeTemplates'].includes(k));
    if (unknown.length > 0 || entry.includeSelectors === true)
      throw new KustomizeError(`labels: only pairs, includeTemplates and includeSelectors: false are supported`);
    obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, ...entry.pairs } };
    if (entry.includeTemplates && POD_TEMPLATE_KINDS.has(obj.kind) && obj.spec?.template) {
      obj.spec.template.metadata = { ...obj.spec.template.metadata, labels: { ...obj.spec.template.metadata?.labels, ...entry.pairs } };
    }
  }
}

function setImages(obj, images) {
  const spec = obj.spec?.template?.spec ?? obj.spec?.jobTemplate?.spec?.template?.spec;
  if (!spec) return;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    for (const img of images ?? []) {
      const at = c.image.lastIndexOf(':');
      const name = at > c.image.lastIndexOf('/') ? c.image.slice(0, at) : c.image;
      const tag = at > c.image.lastIndexOf('/') ? c.image.slice(at + 1) : undefined;
      if (name === img.name) c.image = `${img.newName ?? name}${(img.newTag ?? tag) ? `:${img.newTag ?? tag}` : ''}`;
    }
  }
}

/** Renders the kustomization in `dir` (a base, an overlay, or a component) into a list of objects. */
export function render(dir, expectKind = 'Kustomization') {
  const file = kustomizationIn(dir);
  const [k] = readYaml(file);
  const kind = k?.kind ?? 'Kustomization';
  if (kind !== expectKind) throw new KustomizeError(`${file}: expected kind ${expectKind}, got ${kind}`);
  const unknown = Object.keys(k).filter((key) => !KUSTOMIZATION_KEYS.has(key));
  if (unknown.length > 0)
    throw new KustomizeError(`${file}: unsupported kustomization field(s) ${unknown.join(', ')} (see tools/deploy/kustomize.mjs)`);

  let objects = [];
  for (const r of k.resources ?? []) {
    const p = path.join(dir, r);
    if (!existsSync(p)) throw new KustomizeError(`${file}: resource ${r} does not exist`);
    objects.push(...(statSync(p).isDirectory() ? render(p) : readYaml(p)));
  }
  for (const c of k.components ?? []) {
    const component = path.join(dir, c);
    const [ck] = readYaml(kustomizationIn(component));
    objects.push(...render(component, 'Component'));
    // A component's patches apply to everything accumulated so far, not only to its own resources.
    applyPatches(objects, ck.patches, component, kustomizationIn(component));
  }
  if (kind === 'Kustomization') applyPatches(objects, k.patches, dir, file);
  objects = objects.map((o) => structuredClone(o));
  for (const obj of objects) {
    if (!obj.apiVersion || !obj.kind || !obj.metadata?.name)
      throw new KustomizeError(`${file}: an object without apiVersion, kind or metadata.name: ${JSON.stringify(obj).slice(0, 200)}`);
    addLabels(obj, k.labels);
    setImages(obj, k.images);
    if (k.namespace && !CLUSTER_SCOPED.has(obj.kind)) obj.metadata.namespace = k.namespace;
  }
  const seen = new Set();
  for (const obj of objects) {
    const id = `${obj.apiVersion}/${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    if (seen.has(id)) throw new KustomizeError(`${file}: ${obj.kind} ${obj.metadata.name} is defined twice`);
    seen.add(id);
  }
  return objects;
}
