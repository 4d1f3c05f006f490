// A small kustomize renderer for CI, where there is no kustomize binary and no network. It implements
// exactly the subset our manifests use, and refuses anything else, so a manifest that relies on a feature
// it lacks fails loudly instead of rendering wrong. Supported (kustomize.config.k8s.io/v1beta1):
//   resources (files, multi-document YAML, or directories holding a kustomization), components
//   (kind: Component; their resources and patches), namespace, labels (pairs, includeSelectors: false,
//   includeTemplates), images (name → newName/newTag), patches (path: strategic merge, matched by
//   kind + metadata.name; maps merge, lists of named items merge by name, other lists are replaced,
//   null deletes a key), replacements (source kind + name + fieldPath; targets selected by kind, name or one
//   `key=value` labelSelector; field paths of keys, list indexes and [name=x]; options delimiter + index; run after
//   images, as kustomize does), and objects annotated config.kubernetes.io/local-config: "true" (used as
//   replacement sources, left out of the output).
import { readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const KUSTOMIZATION_KEYS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'namespace',
  'labels',
  'images',
  'patches',
  'replacements',
]);
const LOCAL_CONFIG = 'config.kubernetes.io/local-config';
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

/** Splits a replacement field path: `spec.template.spec.containers.[name=web].image`, `spec.triggers.0.metadata.x`. */
function pathSegments(fieldPath) {
  return fieldPath.split('.').map((seg) => {
    const named = /^\[(\w+)=(.+)\]$/.exec(seg);
    if (named) return { key: named[1], value: named[2] };
    if (/^\d+$/.test(seg)) return Number(seg);
    return seg;
  });
}

function walk(obj, fieldPath, what) {
  const segments = pathSegments(fieldPath);
  let node = obj;
  for (const [i, seg] of segments.entries()) {
    const last = i === segments.length - 1;
    let parent = node;
    let key;
    if (typeof seg === 'number') {
      if (!Array.isArray(node)) break;
      key = seg;
    } else if (typeof seg === 'object') {
      if (!Array.isArray(node)) break;
      key = node.findIndex((x) => isObject(x) && String(x[seg.key]) === seg.value);
      if (key < 0) break;
    } else {
      if (!isObject(node)) break;
      key = seg;
    }
    if (last) {
      if (parent[key] === undefined) break;
      return { get: () => parent[key], set: (v) => (parent[key] = v) };
    }
    node = parent[key];
  }
  throw new KustomizeError(`${what}: field ${fieldPath} not found in ${obj.kind}/${obj.metadata?.name}`);
}

/** Without `part`: the piece of `whole` that options.delimiter + index name (all of it without a delimiter). With it: `whole` with that piece replaced. */
function delimited(options, whole, part) {
  if (!options?.delimiter) return part ?? whole;
  const parts = whole.split(options.delimiter);
  const index = options.index ?? 0;
  if (index < 0 || index >= parts.length)
    throw new KustomizeError(`replacement: index ${index} is outside "${whole}" split by "${options.delimiter}"`);
  return part === undefined ? parts[index] : Object.assign(parts, { [index]: part }).join(options.delimiter);
}

function selects(obj, select) {
  const unknown = Object.keys(select ?? {}).filter((k) => !['kind', 'name', 'labelSelector'].includes(k));
  if (unknown.length > 0)
    throw new KustomizeError(`replacement: only select.kind, name and labelSelector are supported, got ${unknown.join(', ')}`);
  if (select.kind && obj.kind !== select.kind) return false;
  if (select.name && obj.metadata?.name !== select.name) return false;
  if (select.labelSelector) {
    const m = /^([\w./-]+)=([\w.-]+)$/.exec(select.labelSelector);
    if (!m) throw new KustomizeError(`replacement: labelSelector must be one key=value, got "${select.labelSelector}"`);
    if (obj.metadata?.labels?.[m[1]] !== m[2]) return false;
  }
  return true;
}

/** kustomize `replacements`: copy one field's value (or a delimited part of it) into fields of other objects. */
function applyReplacements(objects, replacements, file) {
  for (const r of replacements ?? []) {
    const { source, targets } = r;
    const src = objects.find((o) => o.kind === source?.kind && o.metadata?.name === source?.name);
    if (!src) throw new KustomizeError(`${file}: replacement source ${source?.kind}/${source?.name} not found`);
    const value = delimited(source.options, String(walk(src, source.fieldPath, file).get()), undefined);
    for (const t of targets ?? []) {
      const matched = objects.filter((o) => selects(o, t.select));
      if (matched.length === 0) throw new KustomizeError(`${file}: replacement target ${JSON.stringify(t.select)} selects nothing`);
      for (const obj of matched) {
        for (const fp of t.fieldPaths ?? []) {
          const field = walk(obj, fp, file);
          field.set(t.options?.delimiter ? delimited(t.options, String(field.get()), value) : value);
        }
      }
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
    // A component's patches and replacements apply to everything accumulated so far, not only to its own resources.
    applyPatches(objects, ck.patches, component, kustomizationIn(component));
    applyReplacements(objects, ck.replacements, kustomizationIn(component));
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
  // After images, as kustomize runs them: a replacement reading an image sees the tag this kustomization set.
  if (kind === 'Kustomization') applyReplacements(objects, k.replacements, file);
  const seen = new Set();
  for (const obj of objects) {
    const id = `${obj.apiVersion}/${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    if (seen.has(id)) throw new KustomizeError(`${file}: ${obj.kind} ${obj.metadata.name} is defined twice`);
    seen.add(id);
  }
  return objects;
}

/** What `kustomize build` prints: the rendered objects without the local-config ones (replacement sources). */
export function build(dir) {
  return render(dir).filter((o) => o.metadata?.annotations?.[LOCAL_CONFIG] !== 'true');
}
