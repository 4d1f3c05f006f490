import * as path from 'node:path';
import { formatOfPath, withoutGz, type DocumentFormat } from '../extract/extraction';

/** A file walked, before the folder's own rules (twins, bundles, patterns) choose what is ingested. */
export interface FoundFile {
  absolutePath: string;
  relativePath: string;
}

/** A file left out, with the reason a person reads in the report. */
export interface SkippedFile {
  /** The file system path. */
  path: string;
  reason: string;
}

export interface ChosenFile extends FoundFile {
  /** The same page in other formats (relative paths): not ingested, recorded on the document. */
  aliases: string[];
}

/**
 * Which format of a page is ingested when it exists in several (`fs.md`, `fs.html`, `fs.json.gz`): the first of these.
 * Markdown is the source the others are generated from and carries the page's structure (headings, lists, code)
 * without the site around it (navigation, per-page tables of contents); HTML comes next (structure, plus chrome to
 * drop); then plain text; PDF last (layout, no structure).
 */
const PREFERENCE: readonly DocumentFormat[] = ['markdown', 'html', 'text', 'pdf'];
/** Formats that are a page's twin but that Dossier does not read (a generated manual's JSON edition). */
const TWIN_ONLY_EXTENSIONS = new Set(['.json']);
/** Names of a page that holds a whole manual (`all.html`, a single-page edition). */
const BUNDLE_STEM = /^(all|index-all|full|complete|single-?page|one-?page|print(able)?|book|manual-all)$/i;
/** A bundle is recognised only beside this many pages of its own (the parts it repeats). */
const MIN_BUNDLE_PARTS = 2;

/** `api/fs.json.gz` → `{ dir: 'api', stem: 'fs', ext: '.json' }`. */
function nameParts(relativePath: string): { dir: string; stem: string; ext: string } {
  const name = withoutGz(path.posix.basename(relativePath));
  const dot = name.lastIndexOf('.');
  return {
    dir: path.posix.dirname(relativePath),
    stem: dot > 0 ? name.slice(0, dot) : name,
    ext: dot > 0 ? name.slice(dot).toLowerCase() : '',
  };
}

/**
 * A glob as a regular expression over a relative path with `/` separators: `*` any run of characters but `/`, `?` one,
 * `**` any run including `/` (`**\/` also none), `{a,b}` either, `[abc]` a class. A pattern without `/` is matched
 * against the file name alone, as in .gitignore: `*.json.gz` excludes them in every folder.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((alt) =>
            alt
              .replace(/[.+^$()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
          )
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += /[.+^$()|\\]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${re}$`);
}

function matcher(globs: readonly string[]): (relativePath: string) => string | undefined {
  const compiled = globs.map((glob) => ({ glob, re: globToRegExp(glob.replace(/^\.\//, '')), baseName: !glob.includes('/') }));
  return (relativePath) => compiled.find(({ re, baseName }) => re.test(baseName ? path.posix.basename(relativePath) : relativePath))?.glob;
}

export interface FolderRules {
  include?: readonly string[];
  exclude?: readonly string[];
}

/**
 * What a documentation folder means, decided before anything is read (docs/decisions/0055):
 * - `--include`/`--exclude` globs (exclude wins);
 * - files no extractor reads are skipped with their type;
 * - the same page in several formats (same folder, same name, `.md`/`.html`/`.txt`/`.pdf`/`.json`, `.gz` or not) is one
 *   document: the preferred format (PREFERENCE) is ingested and the others are recorded as its aliases;
 * - a page holding the whole manual (`all.html`, a single-page edition) beside at least two of its parts is skipped,
 *   with its twins: every fact in it is in a part, and citing it would cite the manual instead of the page.
 * Every file left out is listed with its reason. Order is kept: the same tree always gives the same result.
 */
export function chooseDocuments(
  found: readonly FoundFile[],
  rules: FolderRules = {},
): { files: ChosenFile[]; skipped: SkippedFile[]; superseded: string[] } {
  const absoluteOf = new Map(found.map((f) => [f.relativePath, f.absolutePath]));
  const excluded = matcher(rules.exclude ?? []);
  const included = matcher(rules.include ?? []);
  const skipped: SkippedFile[] = [];
  // Relative paths that are not documents of their own (twins, bundles): a row stored under one earlier goes.
  const superseded: string[] = [];
  const candidates: FoundFile[] = [];
  for (const file of found) {
    const exclude = excluded(file.relativePath);
    if (exclude !== undefined) skipped.push({ path: file.absolutePath, reason: `excluded by --exclude ${exclude}` });
    else if (rules.include?.length && included(file.relativePath) === undefined) {
      skipped.push({ path: file.absolutePath, reason: 'not matched by any --include pattern' });
    } else candidates.push(file);
  }

  // Pages by folder and name; a twin-only format (JSON) joins a group but is never chosen.
  const groups = new Map<string, FoundFile[]>();
  for (const file of candidates) {
    const { dir, stem, ext } = nameParts(file.relativePath);
    if (formatOfPath(file.relativePath) === undefined && !TWIN_ONLY_EXTENSIONS.has(ext)) {
      skipped.push({ path: file.absolutePath, reason: `unsupported file type${ext ? ` (${ext})` : ''}` });
      continue;
    }
    const key = `${dir}\u0000${stem}`;
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }

  const chosen = new Map<string, ChosenFile>();
  for (const members of groups.values()) {
    const rank = (f: FoundFile) => {
      const format = formatOfPath(f.relativePath);
      return format === undefined ? PREFERENCE.length : PREFERENCE.indexOf(format);
    };
    const best = [...members].sort((a, b) => rank(a) - rank(b) || (a.relativePath < b.relativePath ? -1 : 1))[0]!;
    if (rank(best) === PREFERENCE.length) {
      for (const f of members) skipped.push({ path: f.absolutePath, reason: `unsupported file type (${nameParts(f.relativePath).ext})` });
      continue;
    }
    const twins = members.filter((f) => f !== best);
    const aliases = twins.map((f) => f.relativePath);
    superseded.push(...aliases);
    for (const twin of twins)
      skipped.push({ path: twin.absolutePath, reason: `same page as ${best.relativePath} (ingested; recorded as its alias)` });
    chosen.set(best.relativePath, { ...best, aliases });
  }

  // Whole-manual bundles: by name, beside enough parts in the same folder.
  const perFolder = new Map<string, number>();
  for (const file of chosen.values()) {
    const { dir } = nameParts(file.relativePath);
    perFolder.set(dir, (perFolder.get(dir) ?? 0) + 1);
  }
  for (const file of [...chosen.values()]) {
    const { dir, stem } = nameParts(file.relativePath);
    const parts = (perFolder.get(dir) ?? 0) - 1;
    if (!BUNDLE_STEM.test(stem) || parts < MIN_BUNDLE_PARTS) continue;
    chosen.delete(file.relativePath);
    superseded.push(file.relativePath);
    const where = dir === '.' ? 'this folder' : `${dir}/`;
    const bundle = new Set([file.relativePath, ...file.aliases].map((p) => absoluteOf.get(p) ?? p));
    // Its twins were listed as its aliases above: they are listed once, as part of the bundle.
    for (let i = skipped.length - 1; i >= 0; i--) if (bundle.has(skipped[i]!.path)) skipped.splice(i, 1);
    for (const p of bundle) {
      skipped.push({ path: p, reason: `the whole manual in one page: its ${parts} parts in ${where} are ingested instead` });
    }
  }

  const files = candidates.filter((f) => chosen.has(f.relativePath)).map((f) => chosen.get(f.relativePath)!);
  const order = new Map(found.map((f, i) => [f.absolutePath, i]));
  skipped.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  return { files, skipped, superseded };
}
