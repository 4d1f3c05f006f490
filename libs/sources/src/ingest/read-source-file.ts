import { open } from 'node:fs/promises';
import { ExtractionError } from '../errors';

/** The largest file ingestion reads; anything bigger is listed as `too_large` and not read at all. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface SourceFile {
  bytes: Uint8Array;
  byteSize: number;
  modifiedAt: Date;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function ioFailure(err: unknown): ExtractionError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return new ExtractionError('unreadable', 'unreadable: permission denied', { cause: err });
    case 'ENOENT':
      return new ExtractionError('not_found', 'not found: the file disappeared while ingesting', { cause: err });
    case 'EISDIR':
    case 'EIO':
    case 'ELOOP':
    case 'ENAMETOOLONG':
      return new ExtractionError('unreadable', `unreadable: ${String(code)}`, { cause: err });
    default:
      return undefined;
  }
}

/**
 * Reads a whole file under a size cap, from one open handle so that the size checked is the size read.
 * Permission and vanished-file errors become ExtractionError; anything else (a failing disk) is thrown.
 */
export async function readSourceFile(path: string, maxBytes: number): Promise<SourceFile> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw ioFailure(err) ?? err;
  }
  try {
    const stat = await handle.stat();
    if (stat.size > maxBytes) {
      throw new ExtractionError('too_large', `too large: ${megabytes(stat.size)} is over the ${megabytes(maxBytes)} limit`);
    }
    let bytes: Buffer;
    try {
      bytes = await handle.readFile();
    } catch (err) {
      throw ioFailure(err) ?? err;
    }
    if (bytes.length > maxBytes) {
      throw new ExtractionError('too_large', `too large: ${megabytes(bytes.length)} is over the ${megabytes(maxBytes)} limit`);
    }
    return { bytes, byteSize: bytes.length, modifiedAt: stat.mtime };
  } finally {
    await handle.close();
  }
}
