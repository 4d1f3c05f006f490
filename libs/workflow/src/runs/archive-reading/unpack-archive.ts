import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { RunArchive, type RecordedKind } from '@dossier/contracts';
import { canonicalJson, sha256 } from '@dossier/db';
import { ARCHIVE_READ_LIMITS } from './archive-limits';
import { JsonBoundsError, JsonBoundsScanner } from './json-bounds';

/** An answer of an archive, checked against its hash, as the JSON text that is stored (Postgres parses it, not us). */
export interface ArchivedAnswer {
  hash: string;
  kind: RecordedKind;
  json: string;
  bytes: number;
}

/** A checked archive: everything but the answers as the contract parsed it; the answers as JSON texts. */
export type ArchiveContents = Omit<RunArchive, 'recording'> & {
  recording: { calls: RunArchive['recording']['calls']; answers: ArchivedAnswer[] };
};

/** Why a file is not an archive this installation takes: `too_large` answers 413, everything else 422. */
export class ArchiveRefusal extends Error {
  constructor(
    readonly reason: 'too_large' | 'not_gzip' | 'not_json' | 'out_of_bounds' | 'invalid' | 'corrupt',
    message: string,
  ) {
    super(message);
    this.name = 'ArchiveRefusal';
  }
}

const { maxUnpackedBytes, json: bounds } = ARCHIVE_READ_LIMITS;

/** The file's JSON text: gunzip as a stream, stopped at the byte cap, its shape checked chunk by chunk as it comes. */
async function unpackedText(bytes: Uint8Array): Promise<string> {
  const gunzip = createGunzip();
  const decoder = new StringDecoder('utf8');
  const scanner = new JsonBoundsScanner(bounds);
  const parts: string[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      gunzip.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxUnpackedBytes) {
          gunzip.destroy();
          return reject(new ArchiveRefusal('too_large', `The archive unpacks to more than ${maxUnpackedBytes} bytes`));
        }
        const text = decoder.write(chunk);
        try {
          scanner.feed(text);
        } catch (err) {
          gunzip.destroy();
          return reject(err);
        }
        parts.push(text);
      });
      gunzip.on('end', resolve);
      gunzip.on('error', (err) => reject(new ArchiveRefusal('not_gzip', `Not a Dossier run archive: not gzip data (${err.message})`)));
      gunzip.end(bytes);
    });
    const rest = decoder.end();
    scanner.feed(rest);
    scanner.end();
    parts.push(rest);
  } catch (err) {
    if (err instanceof JsonBoundsError) throw new ArchiveRefusal('out_of_bounds', `Refused run archive: ${err.message}`);
    throw err;
  }
  return parts.join('');
}

/**
 * Reads an archive file within bounds (issue 30): gzip streamed with a byte cap, the JSON's depth, items per array
 * and object and string sizes checked before it is parsed, no NUL or lone surrogate anywhere, then the contract and
 * every answer's hash. Meant for a worker thread (read-archive.ts), so none of this runs on a server's event loop.
 */
export async function unpackArchiveWithin(bytes: Uint8Array): Promise<ArchiveContents> {
  const text = await unpackedText(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ArchiveRefusal('not_json', 'Not a Dossier run archive: the unpacked data is not JSON');
  }
  const parsed = RunArchive.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ArchiveRefusal('invalid', `Not a valid Dossier run archive: ${issues.join('; ')}`);
  }
  const archive = parsed.data;
  const held = new Set<string>();
  const answers: ArchivedAnswer[] = [];
  for (const answer of archive.recording.answers) {
    if (sha256(canonicalJson(answer.body)) !== answer.hash) {
      throw new ArchiveRefusal(
        'corrupt',
        `Corrupt run archive: the ${answer.kind} answer ${answer.hash.slice(0, 12)} does not match its hash`,
      );
    }
    if (held.has(answer.hash)) continue;
    held.add(answer.hash);
    const text = JSON.stringify(answer.body);
    answers.push({ hash: answer.hash, kind: answer.kind, json: text, bytes: Buffer.byteLength(text) });
  }
  const orphan = archive.recording.calls.find((c) => !held.has(c.answerHash));
  if (orphan) throw new ArchiveRefusal('corrupt', `Corrupt run archive: the call ${orphan.call} names an answer the archive does not hold`);
  return { ...archive, recording: { calls: archive.recording.calls, answers } };
}
