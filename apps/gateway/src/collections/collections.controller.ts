import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Body, Controller, Get, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CreateCollectionBody, UploadDocumentBody, type CollectionView } from '@dossier/contracts';
import { PrismaService } from '@dossier/db';
import { ValidationError } from '@dossier/errors';
import { ensureCollection, findCollection, ingestPaths, listCollections, MAX_FILE_BYTES, type IngestReport } from '@dossier/sources';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { NotFoundError } from '../common/http-errors';
import { parse } from '../common/parse';

export const CollectionIdParams = z.strictObject({ id: z.uuid() });

/** Private corpora: a collection per name, documents uploaded into it and ingested by libs/sources. */
@Controller('v1/collections')
@UseGuards(ApiKeyGuard)
export class CollectionsController {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates the collection (201), or returns the existing one of that name (200). */
  @Post()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() rawBody: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CollectionView> {
    const { name } = parse(CreateCollectionBody, rawBody, 'body');
    const c = await ensureCollection(this.prisma, caller.tenantId, name);
    void reply.status(c.created ? 201 : 200);
    return this.view(caller.tenantId, c.id);
  }

  @Get()
  async list(@CurrentCaller() caller: Caller): Promise<{ items: CollectionView[] }> {
    return { items: await listCollections(this.prisma, caller.tenantId) };
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<CollectionView> {
    const { id } = parse(CollectionIdParams, params, 'path');
    return this.view(caller.tenantId, id);
  }

  /**
   * Uploads one document (JSON: text, or base64 for pdf). It goes through the same ingestion as
   * `dossier ingest` (extraction, dedup by content, full-text index); a file that cannot be read is a 400
   * naming why, and nothing is stored for it.
   */
  @Post(':id/documents')
  async upload(
    @CurrentCaller() caller: Caller,
    @Param() params: unknown,
    @Body() rawBody: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestReport> {
    const { id } = parse(CollectionIdParams, params, 'path');
    const collection = await this.view(caller.tenantId, id);
    const body = req.isMultipart() ? await readMultipartFile(req) : jsonDocument(parse(UploadDocumentBody, rawBody, 'body'));
    const bytes = body.bytes;
    if (bytes.length === 0)
      throw new ValidationError('The document is empty', { details: { part: 'body', issues: [{ path: 'content', message: 'empty' }] } });
    if (bytes.length > MAX_FILE_BYTES)
      throw new ValidationError(`The document is larger than ${MAX_FILE_BYTES} bytes`, { details: { part: 'body' } });
    // Ingestion reads files: stage the upload in a private temporary folder, named as uploaded.
    const dir = await mkdtemp(path.join(tmpdir(), 'dossier-upload-'));
    try {
      const file = path.join(dir, body.filename);
      await writeFile(file, bytes);
      const report = await ingestPaths(this.prisma, { tenantId: caller.tenantId, collection: collection.name, paths: [file], root: dir });
      if (report.failed.length > 0) {
        throw new ValidationError(`The document could not be ingested: ${report.failed.map((f) => f.reason).join('; ')}`, {
          details: { part: 'body', failed: report.failed.map((f) => ({ path: body.filename, code: f.code, reason: f.reason })) },
        });
      }
      void reply.status(report.ingested > 0 ? 201 : 200);
      return report;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async view(tenantId: string, id: string): Promise<CollectionView> {
    // The same tenant-scoped query as the CLI's local transport (libs/db corpus/documents.ts).
    const found = await findCollection(this.prisma, tenantId, { id });
    if (!found) throw new NotFoundError(`Collection ${id} not found`, { details: { collectionId: id } });
    return found;
  }
}

interface UploadedDocument {
  filename: string;
  bytes: Buffer;
}

function jsonDocument(body: z.output<typeof UploadDocumentBody>): UploadedDocument {
  return {
    filename: body.filename,
    bytes: body.encoding === 'base64' ? Buffer.from(body.content, 'base64') : Buffer.from(body.content, 'utf8'),
  };
}

/** `multipart/form-data` with one file part (any field name); its file name picks the extractor. */
async function readMultipartFile(req: FastifyRequest): Promise<UploadedDocument> {
  let filename: string;
  let bytes: Buffer;
  try {
    const part = await req.file({ limits: { files: 1, fileSize: MAX_FILE_BYTES } });
    if (!part) throw new ValidationError('The multipart body has no file part', { details: { part: 'body' } });
    filename = part.filename;
    bytes = await part.toBuffer();
  } catch (err) {
    // Too large keeps its 413; a malformed multipart body (busboy's words) is the client's error.
    if (err instanceof ValidationError || (err as { statusCode?: number }).statusCode === 413) throw err;
    throw new ValidationError(`Malformed multipart body: ${(err as Error).message}`, { details: { part: 'body' } });
  }
  return { filename: parse(UploadDocumentBody.shape.filename, filename, 'body'), bytes };
}
