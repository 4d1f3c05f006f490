import { Injectable } from '@nestjs/common';
import type { Db, Prisma } from '../prisma.service';

/** A run's recording as it travels in an archive: the calls, and the answers they name (each once). */
export interface RecordingRows {
  calls: { step: string; kind: string; requestHash: string; call: string; answerHash: string }[];
  answers: { hash: string; kind: string; body: unknown }[];
}

/** The read and maintenance side of recordings (the calls are written at the boundaries, recording-store.ts). */
@Injectable()
export class RecordingRepository {
  /** The run's calls in the order they were made, and every answer they consumed. */
  async ofRun(db: Db, tenantId: string, runId: string): Promise<RecordingRows> {
    const calls = await db.runRecording.findMany({
      where: { tenantId, runId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { step: true, kind: true, requestHash: true, call: true, answerHash: true },
    });
    const answers = await db.recordedAnswer.findMany({
      where: { tenantId, hash: { in: [...new Set(calls.map((c) => c.answerHash))] } },
      orderBy: { hash: 'asc' },
      select: { hash: true, kind: true, body: true },
    });
    return { calls, answers };
  }

  /** Calls and distinct answer bytes of a run's recording (what `dossier export` reports; a figure of decision 0030). */
  async size(db: Db, tenantId: string, runId: string): Promise<{ calls: number; answers: number; bytes: number }> {
    const [row] = await db.$queryRaw<{ calls: bigint; answers: bigint; bytes: bigint | null }[]>`
      SELECT (SELECT count(*) FROM run_recordings WHERE tenant_id = ${tenantId}::uuid AND run_id = ${runId}::uuid) AS calls,
             count(*) AS answers, sum(a.bytes) AS bytes
      FROM recorded_answers a
      WHERE a.tenant_id = ${tenantId}::uuid
        AND a.hash IN (SELECT answer_hash FROM run_recordings WHERE tenant_id = ${tenantId}::uuid AND run_id = ${runId}::uuid)`;
    return { calls: Number(row?.calls ?? 0), answers: Number(row?.answers ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /** Writes an imported recording under the run `runId` of the tenant; answers already held are kept as they are. */
  async insert(db: Db, tenantId: string, runId: string, rows: RecordingRows, expiresAt: Date): Promise<void> {
    // Calls before answers, as when recording: a purge in between keeps the answers they name.
    if (rows.calls.length > 0) {
      await db.runRecording.createMany({ data: rows.calls.map((c) => ({ ...c, tenantId, runId, expiresAt })), skipDuplicates: true });
    }
    if (rows.answers.length > 0) {
      await db.recordedAnswer.createMany({
        data: rows.answers.map((a) => {
          const json = JSON.stringify(a.body);
          return { tenantId, hash: a.hash, kind: a.kind, body: a.body as Prisma.InputJsonValue, bytes: Buffer.byteLength(json) };
        }),
        skipDuplicates: true,
      });
    }
  }

  /**
   * Stores answers given as their JSON text (an import's, already checked against their hashes): Postgres parses the
   * text into jsonb, so a large answer costs the caller's event loop no parse and no serialisation. Answers the
   * tenant already holds are kept as they are.
   */
  async insertAnswerTexts(
    db: Db,
    tenantId: string,
    answers: readonly { hash: string; kind: string; json: string; bytes: number }[],
  ): Promise<void> {
    if (answers.length === 0) return;
    await db.$executeRaw`
      INSERT INTO recorded_answers (tenant_id, hash, kind, body, bytes)
      SELECT ${tenantId}::uuid, a.hash, a.kind, a.json::jsonb, a.bytes
      FROM unnest(${answers.map((a) => a.hash)}::text[], ${answers.map((a) => a.kind)}::text[],
                  ${answers.map((a) => a.json)}::text[], ${answers.map((a) => a.bytes)}::int[]) AS a(hash, kind, json, bytes)
      ON CONFLICT DO NOTHING`;
  }

  /** Which of these answer hashes the tenant holds. */
  async heldAnswers(db: Db, tenantId: string, hashes: readonly string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await db.$queryRaw<{ hash: string }[]>`
      SELECT hash FROM recorded_answers WHERE tenant_id = ${tenantId}::uuid AND hash = ANY(${[...hashes]}::text[])`;
    return new Set(rows.map((r) => r.hash));
  }

  /**
   * Deletes the calls past their retention, then the answers no call names any more. Run by the conductor; safe to run
   * twice at once (both statements are idempotent) and beside recording (a call is linked before its answer is stored).
   */
  async purgeExpired(db: Db, now = new Date()): Promise<{ calls: number; answers: number }> {
    const calls = await db.runRecording.deleteMany({ where: { expiresAt: { lt: now } } });
    const answers = await db.$executeRaw`
      DELETE FROM recorded_answers a
      WHERE NOT EXISTS (SELECT 1 FROM run_recordings r WHERE r.tenant_id = a.tenant_id AND r.answer_hash = a.hash)`;
    return { calls: calls.count, answers };
  }
}
