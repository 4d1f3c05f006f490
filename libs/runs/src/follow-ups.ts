import { Injectable } from '@nestjs/common';
import { RunOptions } from '@dossier/contracts';
import {
  createOrFindCollectionId,
  insertDocumentsIfAbsent,
  PrismaService,
  RunRepository,
  snapshotIdsOfRun,
  snapshotTexts,
  type RunRow,
} from '@dossier/db';
import { RunNotFoundError, RunStateError, ValidationError } from '@dossier/errors';
import { RunCommands, type ReplayLimits } from './run-commands';

/** The collection a follow-up of `runId` searches: one per run followed up, so every follow-up of it shares it. */
export const followUpCollection = (runId: string) => `sources of run ${runId}`;

/** A document path from a snapshot's title, kept short and free of "/" (it is part of a corpus:// URL). */
function documentPath(title: string, contentHash: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'source'}-${contentHash.slice(0, 12)}.txt`;
}

/**
 * Follow-up runs (docs/decisions/0052): a new run with a new question that starts from a finished run's sources. Every
 * snapshot the run read (its source records' and its evidence's) becomes a document of the collection
 * `sources of run <id>`, stored with the snapshot's own text and content hash, so the follow-up's corpus search finds
 * them first and its evidence points into the very snapshots the first run's evidence did (a document's snapshot is
 * found by content hash: decision 0012). The follow-up keeps the first run's options (engine, web providers, analysts,
 * budgets, gates), within the tenant's policy as a new run's; its corpus is that collection; `followUp.of` names the run.
 */
@Injectable()
export class FollowUps {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly commands: RunCommands,
  ) {}

  async start(tenantId: string, runId: string, question: string, actor: string, limits: ReplayLimits = {}): Promise<RunRow> {
    const original = await this.runs.find(tenantId, runId);
    if (!original) throw new RunNotFoundError(`Run ${runId} not found`, { details: { runId } });
    if (original.status !== 'completed') {
      throw new RunStateError(`Run ${runId} is ${original.status}; only a completed run can be followed up`, {
        runId,
        details: { status: original.status },
      });
    }
    if (question.trim().length === 0) throw new ValidationError('The follow-up question is empty');
    const collection = await this.seedCollection(tenantId, runId);
    const options = RunOptions.parse(original.options);
    const { replay: _replay, ...kept } = options;
    const followUp: RunOptions = {
      ...kept,
      searchProviders: [...new Set(['corpus', ...options.searchProviders])],
      collection,
      followUp: { of: runId },
    };
    return this.commands.start({
      tenantId,
      question,
      options: (limits.underPolicy ?? ((o: RunOptions) => o))(followUp),
      actor,
      ...(limits.maxRunsInProgress !== undefined ? { maxRunsInProgress: limits.maxRunsInProgress } : {}),
    });
  }

  /** The collection of the run's snapshots, created on first use; documents already in it are left as they are. */
  private async seedCollection(tenantId: string, runId: string): Promise<string> {
    const ids = await snapshotIdsOfRun(this.prisma, tenantId, runId);
    if (ids.length === 0) {
      throw new RunStateError(`Run ${runId} read no source: there is nothing for a follow-up to start from`, { runId });
    }
    const snapshots = await snapshotTexts(this.prisma, tenantId, ids);
    const name = followUpCollection(runId);
    const collectionId = await createOrFindCollectionId(this.prisma, tenantId, name);
    // One row per snapshot; skipDuplicates: a second follow-up (or two at once) finds them stored.
    await insertDocumentsIfAbsent(
      this.prisma,
      snapshots.map((s) => ({
        tenantId,
        collectionId,
        path: documentPath(s.title, s.contentHash),
        title: s.title,
        // A web page's snapshot holds extracted text; the document is that text, not the page.
        mediaType: s.mediaType.startsWith('text/') ? s.mediaType : 'text/plain',
        contentHash: s.contentHash,
        text: s.text,
        byteSize: Buffer.byteLength(s.text, 'utf8'),
      })),
    );
    return name;
  }
}
