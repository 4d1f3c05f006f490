import { z } from 'zod';
import { safeText } from '../safe-text';

/** Same rule as ingestion's collection names: no "/" and no control characters. */
export const CollectionNameInput = safeText()
  .trim()
  .min(1)
  .max(120)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .refine((name) => !/[\u0000-\u001F\u007F/]/.test(name), 'a collection name has no "/" and no control characters');

export const CreateCollectionBody = z.strictObject({ name: CollectionNameInput });

export const CollectionView = z.strictObject({ id: z.uuid(), name: z.string(), documents: z.int().min(0) });
export type CollectionView = z.infer<typeof CollectionView>;

/** A document sent as JSON: text, or base64 for binary formats (pdf). The file name's extension picks the extractor. */
export const UploadDocumentBody = z.strictObject({
  filename: safeText()
    .min(1)
    .max(200)
    .regex(
      // eslint-disable-next-line no-control-regex -- refusing control characters is the point
      /^[^/\\\u0000-\u001f]+\.(md|markdown|txt|text|html|htm|pdf)$/i,
      'a file name ending in .md, .txt, .html or .pdf, without folders',
    ),
  content: safeText().min(1),
  encoding: z.enum(['utf8', 'base64']).default('utf8'),
});
export type UploadDocumentBody = z.input<typeof UploadDocumentBody>;

export const UploadResult = z.strictObject({
  collectionId: z.uuid(),
  ingested: z.int(),
  updated: z.int(),
  unchanged: z.int(),
  duplicates: z.int(),
  failed: z.array(z.strictObject({ path: z.string(), code: z.string(), reason: z.string() })),
});
