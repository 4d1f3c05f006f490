import type { Db } from '@dossier/db';
import { corpusUrl } from './corpus-url';
import { SearchQuerySchema, type SearchHit, type SearchProvider, type SearchQuery } from './search-provider';

interface CorpusRow {
  id: string;
  path: string;
  title: string;
  collection: string;
  score: number;
  snippet: string;
}

// ts_headline options: plain text (empty selection markers, so no <b> tags), two fragments of ~15-35 words.
const HEADLINE_OPTIONS = 'StartSel="", StopSel="", MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "';
// ts_rank_cd normalization 1: divide by 1 + log(length), so a long document does not win on size alone.
const RANK_NORMALIZATION = 1;
// Same bound as the indexed part of the text (see the search_vector column): headlines past it cannot match.
const HEADLINE_SOURCE_CHARS = 400_000;

/**
 * `corpus`: Postgres full-text search over a tenant's ingested documents. The query is read as a web
 * search (`websearch_to_tsquery`: quotes, `or`, `-word`); when that finds nothing, which is typical of a
 * natural-language question since every word must match, it is retried as an OR of the question's
 * lexemes, ranked so that documents matching more of them come first. Ranked by `ts_rank_cd`, title
 * weighted above body; snippets by `ts_headline`. Always filtered by tenant (and collection when given).
 */
export class CorpusSearchProvider implements SearchProvider {
  readonly name = 'corpus';

  constructor(private readonly db: Db) {}

  async search(input: SearchQuery): Promise<SearchHit[]> {
    const query = SearchQuerySchema.parse(input);
    const collection = query.collection ?? null;
    let rows = await this.run(query.query, false, query.tenantId, collection, query.limit);
    if (rows.length === 0) rows = await this.run(query.query, true, query.tenantId, collection, query.limit);
    return rows.map((row, i) => ({
      provider: this.name,
      documentId: row.id,
      url: corpusUrl(row.collection, row.path),
      title: row.title,
      snippet: row.snippet.replace(/\s+/g, ' ').trim(),
      rank: i + 1,
      score: Number(row.score),
      origin: 'corpus' as const,
    }));
  }

  private run(text: string, anyTerm: boolean, tenantId: string, collection: string | null, limit: number): Promise<CorpusRow[]> {
    // The fallback ORs the lexemes of plainto_tsquery, which keeps only positive terms: a `-word`
    // exclusion must not turn into "anything but word". Headlines are built for the cut hits only
    // (ts_headline re-parses the text).
    return this.db.$queryRaw<CorpusRow[]>`
      WITH q AS (
        SELECT CASE WHEN ${anyTerm}::boolean
          THEN regexp_replace(plainto_tsquery('english', ${text}::text)::text, ' (&|<->|<[0-9]+>) ', ' | ', 'g')::tsquery
          ELSE websearch_to_tsquery('english', ${text}::text)
        END AS query
      ),
      hits AS (
        SELECT d.id, d.path, d.title, d.text, c.name AS collection,
               ts_rank_cd(d.search_vector, q.query, ${RANK_NORMALIZATION}::int)::float8 AS score
        FROM documents d
        JOIN collections c ON c.id = d.collection_id AND c.tenant_id = d.tenant_id
        CROSS JOIN q
        WHERE d.tenant_id = ${tenantId}::uuid
          AND (${collection}::text IS NULL OR c.name = ${collection}::text)
          AND d.search_vector @@ q.query
        ORDER BY score DESC, d.path, d.id
        LIMIT ${limit}::int
      )
      SELECT hits.id::text AS id, hits.path, hits.title, hits.collection, hits.score,
             ts_headline('english', left(hits.text, ${HEADLINE_SOURCE_CHARS}::int), q.query, ${HEADLINE_OPTIONS}) AS snippet
      FROM hits CROSS JOIN q
      ORDER BY hits.score DESC, hits.path, hits.id`;
  }
}
