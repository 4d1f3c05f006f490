import { EvalSetError } from './errors';

/*
 * A small reader of (gzip-decompressed) tar archives: ustar, GNU long names and pax `path` records — what GNU tar,
 * bsdtar and npm's tar write. Only regular files and directories are accepted; a link or a device is refused, as is
 * any member whose path is absolute or climbs out with `..`, so unpacking a set can write nowhere but its own folder.
 * Written here rather than adding a dependency: reading is ~80 lines and the format has not changed since 2001.
 */

const BLOCK = 512;

export interface TarMember {
  /** The member's path, relative, with `/` separators. */
  path: string;
  data: Buffer;
}

function text(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? raw.length : nul).toString('utf8');
}

function size(block: Buffer, archive: string): number {
  const field = block.subarray(124, 136);
  // Base-256 (GNU, for sizes over 8 GB) has the high bit of the first byte set: no eval corpus is that large.
  if ((field[0]! & 0x80) !== 0) throw new EvalSetError(`${archive}: a member is larger than an eval corpus may be`);
  const octal = text(block, 124, 12).trim();
  const n = octal === '' ? 0 : parseInt(octal, 8);
  if (!Number.isFinite(n) || n < 0) throw new EvalSetError(`${archive}: a member header has a malformed size "${octal}"`);
  return n;
}

function checksumOk(block: Buffer): boolean {
  const stored = parseInt(text(block, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return stored === sum;
}

/** A member path made safe and canonical, or an error naming it: relative, no `..`, no empty name. */
export function safeMemberPath(raw: string, archive: string): string {
  const path = raw.replace(/^\.\//, '');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) {
    throw new EvalSetError(`${archive}: member "${raw}" has an absolute path; members must be relative`);
  }
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new EvalSetError(`${archive}: member "${raw}" climbs out of the archive with ".."`);
  return parts.join('/');
}

function paxPath(data: Buffer): string | undefined {
  // Records are "<length> <key>=<value>\n".
  let at = 0;
  let found: string | undefined;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = parseInt(data.subarray(at, space).toString('utf8'), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') found = record.slice(eq + 1);
    at += length;
  }
  return found;
}

/** The regular files of a tar archive, in archive order. `archive` names it in errors. */
export function readTar(tar: Buffer, archive: string): TarMember[] {
  const members: TarMember[] = [];
  let at = 0;
  let longName: string | undefined;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break; // end of archive
    if (!checksumOk(header)) throw new EvalSetError(`${archive}: not a tar archive (bad header checksum at byte ${at})`);
    const type = String.fromCharCode(header[156]!);
    const length = size(header, archive);
    const dataStart = at + BLOCK;
    if (dataStart + length > tar.length) throw new EvalSetError(`${archive}: truncated (a member runs past the end)`);
    const data = tar.subarray(dataStart, dataStart + length);
    at = dataStart + Math.ceil(length / BLOCK) * BLOCK;
    const prefix = text(header, 257, 6) === 'ustar' ? text(header, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    if (type === 'L') {
      longName = text(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    longName = undefined;
    if (type === 'g' || type === '5') continue; // global pax header, directory
    if (type !== '0' && type !== '\0' && type !== '7') {
      throw new EvalSetError(`${archive}: member "${name}" is not a regular file (type "${type}"); links and devices are refused`);
    }
    const path = safeMemberPath(name, archive);
    if (path === '') throw new EvalSetError(`${archive}: a file member has an empty name`);
    members.push({ path, data: Buffer.from(data) });
  }
  return members;
}
