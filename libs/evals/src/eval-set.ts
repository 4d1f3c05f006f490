import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { EvalSetError } from './errors';
import { phrasingParts } from './matching';
import { readTar, safeMemberPath } from './tar-reader';

/*
 * An eval set (docs/decisions/0021, /evals/sets/<name>/): questions with the key points a good answer states, the
 * traps it must not state and the sources that hold the answer, over a corpus shipped beside them.
 */

/** The repository root (this file is libs/evals/src/eval-set.ts): shipped sets and the examples corpus live there. */
export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const SETS_DIR = path.join(REPO_ROOT, 'evals', 'sets');

const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and "-"');

/** A corpus-relative path: relative, `/`-separated, never climbing out with `..`. */
const CorpusPath = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => !p.startsWith('/') && !p.includes('\\') && !p.split('/').includes('..') && !/^[A-Za-z]:/.test(p), {
    message: 'must be a relative path inside the corpus (no leading "/", no "..", "/" separators)',
  });

/** A phrasing whose parts ("a + b") all normalize to something: an empty part would match nothing, silently. */
const Phrasing = z
  .string()
  .min(1)
  .max(300)
  .refine((p) => phrasingParts(p).every((part) => part.length > 0), {
    message: 'every part of a phrasing (split on " + ") must contain a letter or digit',
  });

export const EvalKeyPoint = z.strictObject({
  fact: z.string().min(1).max(1000),
  phrasings: z.array(Phrasing).min(1).max(20),
  source: CorpusPath,
});
export const EvalTrap = z.strictObject({
  statement: z.string().min(1).max(1000),
  phrasings: z.array(Phrasing).min(1).max(20),
});
export const EvalQuestion = z.strictObject({
  id: Slug.max(60),
  question: z.string().min(10).max(400),
  keyPoints: z.array(EvalKeyPoint).min(2).max(8),
  traps: z.array(EvalTrap).min(1).max(5),
  sources: z.array(CorpusPath).min(1).max(6),
});
export const EvalCorpus = z.union([
  z.strictObject({ archive: CorpusPath.refine((p) => p.endsWith('.tar.gz'), { message: 'must name a .tar.gz file' }) }),
  z.strictObject({ dir: CorpusPath }),
]);
export const EvalSet = z
  .strictObject({
    name: Slug.max(60),
    title: z.string().min(1).max(200),
    corpus: EvalCorpus,
    questions: z.array(EvalQuestion).min(1).max(500),
  })
  .superRefine((set, ctx) => {
    const seen = new Set<string>();
    set.questions.forEach((q, i) => {
      if (seen.has(q.id)) ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: `duplicate question id "${q.id}"` });
      seen.add(q.id);
    });
  });
export type EvalSet = z.infer<typeof EvalSet>;
export type EvalQuestion = z.infer<typeof EvalQuestion>;
export type EvalKeyPoint = z.infer<typeof EvalKeyPoint>;
export type EvalTrap = z.infer<typeof EvalTrap>;

/** A set ready to run: validated, its corpus on disk (unpacked into a temporary folder for an archive). */
export interface LoadedEvalSet {
  set: EvalSet;
  /** The set's folder. */
  dir: string;
  /** The corpus's root folder; `files` are relative to it. */
  corpusDir: string;
  files: string[];
  /** Removes the unpacked corpus (nothing for a `dir` corpus). */
  dispose(): Promise<void>;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/** Validates set.json's content; `where` names the file in errors. */
export function parseEvalSet(json: unknown, where: string): EvalSet {
  const parsed = EvalSet.safeParse(json);
  if (!parsed.success) throw new EvalSetError(`${where} is not a valid eval set: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** The names of the sets shipped in evals/sets (folders holding a set.json), sorted. */
export async function listEvalSets(setsDir = SETS_DIR): Promise<string[]> {
  if (!existsSync(setsDir)) return [];
  const entries = await readdir(setsDir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(path.join(setsDir, e.name, 'set.json')))
    .map((e) => e.name)
    .sort();
}

/** A set name under evals/sets, or a path to a set's folder or its set.json. */
async function resolveSetDir(ref: string, setsDir: string): Promise<string> {
  const asPath = path.resolve(ref);
  if (existsSync(asPath)) return (await stat(asPath)).isDirectory() ? asPath : path.dirname(asPath);
  if (/^[a-z0-9][a-z0-9-]*$/.test(ref) && existsSync(path.join(setsDir, ref, 'set.json'))) return path.join(setsDir, ref);
  const known = await listEvalSets(setsDir);
  throw new EvalSetError(
    `No eval set "${ref}": give a set name (${known.length > 0 ? known.join(', ') : 'none shipped'}) or the path of a set folder`,
  );
}

async function walk(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(root, child)));
    else if (e.isFile()) out.push(child);
  }
  return out.sort();
}

async function unpack(archivePath: string, where: string): Promise<{ corpusDir: string; files: string[] }> {
  let tar: Buffer;
  try {
    tar = gunzipSync(await readFile(archivePath));
  } catch (err) {
    throw new EvalSetError(`${where}: cannot read the corpus archive (${(err as Error).message})`, { cause: err });
  }
  const members = readTar(tar, where);
  if (members.length === 0) throw new EvalSetError(`${where}: the corpus archive holds no files`);
  const corpusDir = await mkdtemp(path.join(tmpdir(), 'dossier-eval-corpus-'));
  const files: string[] = [];
  for (const m of members) {
    const rel = safeMemberPath(m.path, where);
    const target = path.join(corpusDir, rel);
    // Belt and braces: the resolved target stays inside the folder whatever the name held.
    if (!target.startsWith(corpusDir + path.sep)) throw new EvalSetError(`${where}: member "${m.path}" leaves the corpus folder`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, m.data);
    files.push(rel);
  }
  return { corpusDir, files: [...new Set(files)].sort() };
}

/**
 * Loads a set: validates set.json (its name must be its folder's), checks the licence and SOURCE.md are there,
 * puts the corpus on disk, and checks every source and key-point source names a file of the corpus.
 */
export async function loadEvalSet(ref: string, options: { setsDir?: string; repoRoot?: string } = {}): Promise<LoadedEvalSet> {
  const dir = await resolveSetDir(ref, options.setsDir ?? SETS_DIR);
  const file = path.join(dir, 'set.json');
  if (!existsSync(file)) throw new EvalSetError(`${dir} has no set.json`);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new EvalSetError(`${file} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const set = parseEvalSet(json, file);
  if (set.name !== path.basename(dir)) {
    throw new EvalSetError(`${file}: name "${set.name}" must be the set's folder name "${path.basename(dir)}"`);
  }
  if (!['LICENSE', 'COPYING'].some((f) => existsSync(path.join(dir, f)))) {
    throw new EvalSetError(`${dir} has no LICENSE (or COPYING) for its corpus`);
  }
  if (!existsSync(path.join(dir, 'SOURCE.md'))) throw new EvalSetError(`${dir} has no SOURCE.md saying where the corpus came from`);

  let corpusDir: string;
  let files: string[];
  let unpacked = false;
  if ('archive' in set.corpus) {
    const archive = path.join(dir, set.corpus.archive);
    if (!existsSync(archive)) throw new EvalSetError(`${file}: corpus archive ${set.corpus.archive} is missing`);
    ({ corpusDir, files } = await unpack(archive, path.join(set.name, set.corpus.archive)));
    unpacked = true;
  } else {
    const root = options.repoRoot ?? REPO_ROOT;
    corpusDir = path.resolve(root, set.corpus.dir);
    if (!existsSync(corpusDir) || !(await stat(corpusDir)).isDirectory()) {
      throw new EvalSetError(`${file}: corpus folder ${set.corpus.dir} does not exist under ${root}`);
    }
    files = await walk(corpusDir);
  }
  const dispose = async () => {
    if (unpacked) await rm(corpusDir, { recursive: true, force: true });
  };
  const present = new Set(files);
  const missing = set.questions.flatMap((q) => [
    ...q.sources.filter((s) => !present.has(s)).map((s) => `${q.id}: source ${s}`),
    ...q.keyPoints.filter((k) => !present.has(k.source)).map((k) => `${q.id}: key point source ${k.source}`),
  ]);
  if (missing.length > 0) {
    await dispose();
    throw new EvalSetError(`${file}: ${missing.length} path(s) not in the corpus: ${[...new Set(missing)].slice(0, 10).join('; ')}`);
  }
  return { set, dir, corpusDir, files, dispose };
}
