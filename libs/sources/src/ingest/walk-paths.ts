import type { Dirent } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ExtractionFailureCode } from '../errors';
import { formatOfPath, SUPPORTED_EXTENSIONS } from '../extract/extraction';
import { chooseDocuments, type FolderRules, type SkippedFile } from './documentation-folder';

export interface WalkedFile {
  absolutePath: string;
  /** Relative to the ingestion root, with `/` separators: the document's path in its collection. */
  relativePath: string;
  /** The same page in other formats, relative like relativePath: not ingested (documentation-folder.ts). */
  aliases?: string[];
}

export interface WalkFailure {
  path: string;
  code: ExtractionFailureCode;
  reason: string;
}

export interface WalkResult {
  files: WalkedFile[];
  failed: WalkFailure[];
  /** Files found inside folders and left out (unsupported, excluded, a twin of a page, a whole-manual bundle). */
  skipped: number;
  /** Each of them with its reason. */
  skippedFiles: SkippedFile[];
  /** Relative paths of files that are another document's alias, or a whole-manual bundle. */
  superseded: string[];
  /** Named paths that do not exist. */
  missing: string[];
}

const IGNORED_DIRECTORIES = new Set(['node_modules']);

function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isIgnored(name: string): boolean {
  return name.startsWith('.') || IGNORED_DIRECTORIES.has(name);
}

function toRelative(root: string, absolutePath: string): string {
  return path.relative(root, absolutePath).split(path.sep).join('/');
}

/**
 * The directory everything is relative to when the caller names none: the deepest folder that contains
 * every named path (a named folder counts as containing itself, a named file as its parent folder).
 */
export function commonRoot(absolutePaths: readonly string[], isDirectory: readonly boolean[]): string {
  const dirs = absolutePaths.map((p, i) => (isDirectory[i] ? p : path.dirname(p)));
  let root = dirs[0] ?? process.cwd();
  for (const dir of dirs.slice(1)) {
    while (root !== path.dirname(root) && dir !== root && !dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
      root = path.dirname(root);
    }
  }
  return root;
}

class Walker {
  readonly result: WalkResult = { files: [], failed: [], skipped: 0, skippedFiles: [], superseded: [], missing: [] };
  private readonly seenFiles = new Set<string>();
  // Directories by device and inode: a symlink back up the tree is entered once, so loops end.
  private readonly seenDirectories = new Set<string>();

  constructor(private readonly root: string) {}

  fail(p: string, code: ExtractionFailureCode, reason: string): void {
    this.result.failed.push({ path: p, code, reason });
  }

  addFile(absolutePath: string): void {
    if (this.seenFiles.has(absolutePath)) return;
    this.seenFiles.add(absolutePath);
    const relativePath = toRelative(this.root, absolutePath);
    if (relativePath.startsWith('../') || relativePath === '..' || path.isAbsolute(relativePath)) {
      this.fail(absolutePath, 'unsupported', `outside the ingestion root ${this.root}`);
      return;
    }
    this.result.files.push({ absolutePath, relativePath });
  }

  async named(given: string, absolutePath: string): Promise<void> {
    let info;
    try {
      info = await stat(absolutePath);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') this.result.missing.push(given);
      else if (code === 'EACCES' || code === 'EPERM') this.fail(given, 'unreadable', 'unreadable: permission denied');
      else if (code === 'ELOOP') this.fail(given, 'unreadable', 'unreadable: too many levels of symbolic links');
      else throw err;
      return;
    }
    if (info.isDirectory()) {
      await this.directory(absolutePath, `${info.dev}:${info.ino}`);
    } else if (!info.isFile()) {
      this.fail(given, 'unsupported', 'unsupported: not a regular file');
    } else if (formatOfPath(absolutePath) === undefined) {
      this.fail(given, 'unsupported', `unsupported file type: expected one of ${SUPPORTED_EXTENSIONS.join(', ')}`);
    } else {
      this.addFile(absolutePath);
    }
  }

  private async directory(absolutePath: string, identity: string): Promise<void> {
    if (this.seenDirectories.has(identity)) return;
    this.seenDirectories.add(identity);
    const entries: Dirent[] = [];
    try {
      for await (const entry of await opendir(absolutePath)) entries.push(entry);
    } catch (err) {
      const code = errnoCode(err);
      if (code !== 'EACCES' && code !== 'EPERM') throw err;
      this.fail(absolutePath, 'unreadable', 'unreadable directory: permission denied');
      return;
    }
    // Code-unit order, not the file system's: the same tree always yields the same sequence.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (isIgnored(entry.name)) continue;
      const child = path.join(absolutePath, entry.name);
      if (entry.isSymbolicLink()) await this.symlink(child);
      else if (entry.isDirectory()) await this.directory(child, await this.identity(child));
      else if (entry.isFile()) this.fileInFolder(child);
      // sockets, FIFOs and devices inside a folder are not documents: ignored like dotfiles
    }
  }

  private async identity(dir: string): Promise<string> {
    const info = await stat(dir);
    return `${info.dev}:${info.ino}`;
  }

  private async symlink(link: string): Promise<void> {
    let info;
    try {
      info = await stat(link);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') this.fail(link, 'not_found', 'broken symbolic link: its target does not exist');
      else if (code === 'ELOOP') this.fail(link, 'unreadable', 'unreadable: symbolic link loop');
      else if (code === 'EACCES' || code === 'EPERM') this.fail(link, 'unreadable', 'unreadable: permission denied');
      else throw err;
      return;
    }
    if (info.isDirectory()) await this.directory(link, `${info.dev}:${info.ino}`);
    else if (info.isFile()) this.fileInFolder(link);
  }

  // Every file in a folder is kept here: the folder's rules (documentation-folder.ts) decide, and list what they skip.
  private fileInFolder(absolutePath: string): void {
    this.addFile(absolutePath);
  }
}

/**
 * Lists the files to ingest under the named paths. Folders are walked recursively in a stable order,
 * skipping dotfiles, dot-folders and node_modules, following symbolic links but entering each folder
 * once. A named file with an unsupported extension is a failure; inside a folder it is skipped. Then the folder's
 * rules choose (chooseDocuments: include/exclude globs, one document per page in several formats, whole-manual
 * bundles); every file left out is in `skippedFiles` with its reason.
 * Missing named paths are returned in `missing`; the caller decides whether that is fatal.
 */
export async function walkPaths(named: readonly string[], root?: string, rules: FolderRules = {}): Promise<WalkResult & { root: string }> {
  const targets = named.map((given) => ({ given, absolute: path.resolve(given) }));
  const absolute = targets.map((t) => t.absolute);
  // Only to choose the root, from the paths that exist: one that cannot be stat'ed is reported by
  // walker.named() below.
  const kinds = await Promise.all(
    absolute.map((p) =>
      stat(p).then(
        (s) => (s.isDirectory() ? 'directory' : 'file'),
        () => 'missing',
      ),
    ),
  );
  const existing = absolute.filter((_, i) => kinds[i] !== 'missing');
  const base =
    root === undefined
      ? commonRoot(
          existing,
          kinds.filter((k) => k !== 'missing').map((k) => k === 'directory'),
        )
      : path.resolve(root);
  const walker = new Walker(base);
  for (const target of targets) await walker.named(target.given, target.absolute);
  const { files, skipped, superseded } = chooseDocuments(walker.result.files, rules);
  return { ...walker.result, files, skipped: skipped.length, skippedFiles: skipped, superseded, root: base };
}
