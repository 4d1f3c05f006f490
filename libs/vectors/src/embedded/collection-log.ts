import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { VectorStoreCorruptError } from '../errors';
import type { VectorPayload } from '../vector-store';
import { decodeVector, headerLine, LogHeader, LogRecord, type DecodedRecord } from './log-records';

const READ_CHUNK = 1 << 20;
// Lines are batched into writes of about this size: one syscall per batch without building one huge string.
const WRITE_BATCH = 4 << 20;
const NEWLINE = 0x0a;

export interface CollectionLogOptions {
  /** fdatasync after every append, so an acknowledged write survives a machine crash, not just a process crash. */
  fsync: boolean;
}

/**
 * One collection's append-only JSONL file: a header line, then one line per upserted point or per delete.
 * Replaying it in order rebuilds the collection. Writes only ever append whole lines; a line cut short by
 * a crash can only be the last one and is cut off on open. Compaction writes a fresh file beside it and
 * renames it over the old one, so the file is always either the old log or the new one.
 */
export class CollectionLog {
  /** Lines after the header: the upserts and deletes a compaction would fold away. */
  records: number;
  private broken: unknown;

  private constructor(
    readonly file: string,
    private handle: FileHandle,
    private size: number,
    records: number,
    private readonly options: CollectionLogOptions,
  ) {
    this.records = records;
  }

  static async create(file: string, dimension: number, options: CollectionLogOptions): Promise<CollectionLog> {
    const header = headerLine(dimension);
    await writeAtomically(file, [header]);
    const handle = await open(file, 'r+');
    return new CollectionLog(file, handle, Buffer.byteLength(header), 0, options);
  }

  /**
   * Replays the file: `begin` receives the header's dimension and returns the function that applies each
   * record. A torn last line is cut off (it was never acknowledged); any other bad line is corruption.
   */
  static async open(
    file: string,
    options: CollectionLogOptions,
    begin: (dimension: number) => (record: DecodedRecord) => void,
  ): Promise<{ log: CollectionLog; dimension: number }> {
    const handle = await open(file, 'r+');
    try {
      let dimension = 0;
      let apply: ((record: DecodedRecord) => void) | undefined;
      let records = 0;
      let lineNo = 0;
      let validEnd = 0;
      for await (const line of readLines(handle)) {
        lineNo++;
        if (!line.terminated) break;
        if (apply === undefined) {
          dimension = parseHeader(file, line.text);
          apply = begin(dimension);
        } else {
          apply(parseRecord(file, lineNo, line.text, dimension));
          records++;
        }
        validEnd = line.end + 1;
      }
      if (apply === undefined) {
        // The header itself is torn: create() writes it atomically, so this is not a crash artefact.
        throw new VectorStoreCorruptError(`${file}: missing or incomplete header line`);
      }
      const { size } = await handle.stat();
      if (size > validEnd) {
        // A crash in the middle of an append; appending after it would glue the next record onto garbage.
        await handle.truncate(validEnd);
        if (options.fsync) await handle.datasync();
      }
      return { log: new CollectionLog(file, handle, validEnd, records, options), dimension };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async append(lines: string[]): Promise<void> {
    this.assertUsable();
    let position = this.size;
    try {
      for (const chunk of batches(lines)) {
        const bytes = Buffer.from(chunk, 'utf8');
        let written = 0;
        while (written < bytes.length) {
          const { bytesWritten } = await this.handle.write(bytes, written, bytes.length - written, position + written);
          written += bytesWritten;
        }
        position += bytes.length;
      }
      if (this.options.fsync) await this.handle.datasync();
    } catch (err) {
      // Take back whatever part of this append reached the file, so the log still ends on a whole record.
      try {
        await this.handle.truncate(this.size);
      } catch (truncateErr) {
        // The file now ends in an unknown state: refuse further appends until reopened (open cuts it back).
        this.broken = truncateErr;
      }
      throw err;
    }
    this.size = position;
    this.records += lines.length;
  }

  /** Replaces the file with a header and `lines` (the live points), atomically. */
  async rewrite(dimension: number, lines: Iterable<string>): Promise<void> {
    this.assertUsable();
    let count = 0;
    const all = (function* () {
      yield headerLine(dimension);
      for (const line of lines) {
        count++;
        yield line;
      }
    })();
    const size = await writeAtomically(this.file, all);
    const fresh = await open(this.file, 'r+');
    const old = this.handle;
    this.handle = fresh;
    this.size = size;
    this.records = count;
    await old.close();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  private assertUsable(): void {
    if (this.broken !== undefined) {
      throw new VectorStoreCorruptError(`${this.file}: an earlier failed append could not be rolled back; reopen the store`, {
        cause: this.broken,
      });
    }
  }
}

function parseHeader(file: string, text: string): number {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new VectorStoreCorruptError(`${file}: the header line is not JSON`, { cause: err });
  }
  const header = LogHeader.safeParse(json);
  if (!header.success) throw new VectorStoreCorruptError(`${file}: not a dossier-vectors v1 file`, { cause: header.error });
  return header.data.dimension;
}

function parseRecord(file: string, lineNo: number, text: string, dimension: number): DecodedRecord {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new VectorStoreCorruptError(`${file}:${lineNo}: not JSON`, { cause: err });
  }
  const parsed = LogRecord.safeParse(json);
  if (!parsed.success) throw new VectorStoreCorruptError(`${file}:${lineNo}: not a vector log record`, { cause: parsed.error });
  const record = parsed.data;
  if (record.op === 'delete') return record;
  const vector = decodeVector(record.vector, dimension);
  if (vector === null) throw new VectorStoreCorruptError(`${file}:${lineNo}: the vector is not ${dimension} finite floats`);
  // JSON has no undefined, so the payload is already in the store's normalised form.
  return { op: 'upsert', id: record.id, payload: record.payload as VectorPayload, vector };
}

interface Line {
  text: string;
  /** Byte offset of the line's end (its newline, when terminated). */
  end: number;
  terminated: boolean;
}

/** Lines with their byte offsets (a string index would be wrong as soon as a payload holds non-ASCII text). */
async function* readLines(handle: FileHandle): AsyncGenerator<Line> {
  let pending = Buffer.alloc(0);
  let pendingStart = 0;
  let position = 0;
  const chunk = Buffer.alloc(READ_CHUNK);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const buffer = pending.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
    let from = 0;
    for (let nl = buffer.indexOf(NEWLINE, from); nl !== -1; nl = buffer.indexOf(NEWLINE, from)) {
      yield { text: buffer.toString('utf8', from, nl), end: pendingStart + nl, terminated: true };
      from = nl + 1;
    }
    // Copied: `chunk` is overwritten by the next read.
    pending = Buffer.from(buffer.subarray(from));
    pendingStart += from;
  }
  if (pending.length > 0) yield { text: pending.toString('utf8'), end: pendingStart + pending.length, terminated: false };
}

function* batches(lines: Iterable<string>): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  for (const line of lines) {
    parts.push(line);
    size += line.length;
    if (size >= WRITE_BATCH) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield parts.join('');
}

/**
 * Writes `lines` to a temporary file, syncs it, renames it over `file` and syncs the directory: after a
 * crash the path holds either the old content or all of the new. Returns the new size in bytes.
 */
async function writeAtomically(file: string, lines: Iterable<string>): Promise<number> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w');
  let size = 0;
  try {
    for (const chunk of batches(lines)) {
      const bytes = Buffer.from(chunk, 'utf8');
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
      size += bytes.length;
    }
    await handle.datasync();
  } catch (err) {
    return discard(handle, tmp, err);
  }
  await handle.close();
  await rename(tmp, file);
  await syncDirectory(dirname(file));
  return size;
}

/** Removes a half-written temporary file and rethrows the write's error (with the cleanup's, if that failed too). */
async function discard(handle: FileHandle, tmp: string, err: unknown): Promise<never> {
  try {
    await handle.close();
    await unlink(tmp);
  } catch (cleanupErr) {
    throw new AggregateError([err, cleanupErr], `writing ${tmp} failed, and so did removing it`, { cause: cleanupErr });
  }
  throw err;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
