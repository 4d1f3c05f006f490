import { collectionIdByName, deleteDocuments, documentPaths, type Db } from '@dossier/db';
import { globToRegExp } from './documentation-folder';

/**
 * Removes the documents of a collection named by path or glob (`api/*.md`, `**\/CHANGELOG*`; a pattern without `/`
 * matches file names), a pattern matching a document's path or one of its aliases. Their passages go with them (foreign
 * key). Returns the removed paths; null when the collection does not exist.
 */
export async function removeDocuments(db: Db, tenantId: string, collection: string, patterns: readonly string[]): Promise<string[] | null> {
  const collectionId = await collectionIdByName(db, tenantId, collection);
  if (collectionId === null) return null;
  const rows = await documentPaths(db, tenantId, collectionId);
  const matchers = patterns.map((p) => {
    const re = globToRegExp(p.replace(/^\.\//, ''));
    return (candidate: string) => re.test(p.includes('/') ? candidate : (candidate.split('/').pop() ?? candidate));
  });
  const doomed = rows.filter((r) => [r.path, ...r.aliases].some((candidate) => matchers.some((m) => m(candidate))));
  if (doomed.length > 0)
    await deleteDocuments(
      db,
      tenantId,
      collectionId,
      doomed.map((d) => d.id),
    );
  return doomed.map((d) => d.path);
}
