import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApiClient } from './api-client';

const CORPUS = path.resolve(__dirname, '../../examples/corpus');

/** A slice of the example corpus whose sources disagree: small enough for many runs on two cores. */
const FILES = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'timeline-lake-varen-2014-2025.md',
  'kessmark-climate-office-bulletin-2024.md',
  'varen-lake-trust-report-2024.md',
];

/** Creates the collection `soak` through the gateway and uploads the documents (before any chaos). */
export async function uploadCorpus(api: ApiClient, until: number): Promise<void> {
  const created = await api.persist('POST', '/v1/collections', { name: 'soak' }, {}, until);
  const id = (created.json as { id?: string } | undefined)?.id;
  if ((created.status !== 201 && created.status !== 200) || !id)
    throw new Error(`creating the collection: ${created.status} ${created.text}`);
  for (const filename of FILES) {
    const content = readFileSync(path.join(CORPUS, filename), 'utf8');
    const up = await api.persist('POST', `/v1/collections/${id}/documents`, { filename, content }, {}, until);
    if (up.status !== 201 && up.status !== 200) throw new Error(`uploading ${filename}: ${up.status} ${up.text}`);
  }
}
