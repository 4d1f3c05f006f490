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
// ts_rank_cd normalization 1 (divide by 1 + log(length)): a passage that is a whole chapter does not win on size.
const RANK_NORMALIZATION = 1;
/**
 * A passage's rank is scaled by its share of the query's rarity (decision 0145): the idf, among the passages in scope,
 * of the query words it holds over that of all the query's words, at this weight (score × (1 − w + w × share)). So a
 * passage naming "pickle" beats one saying "file" and "load" twenty times, while `ts_rank_cd` (the words close
 * together, the title's weigh most) still orders passages of equal rarity: replacing it by an idf sum (0141) let a small
 * corpus's rare words decide alone, where every page shares the subject's words.
 */
const RARITY_WEIGHT = 1;
/** A document's score: its best passage, plus this share of each of its next-best (up to SUPPORTING_PASSAGES). */
const SUPPORT_WEIGHT = 0.25;
const SUPPORTING_PASSAGES = 2;
/** A passage that holds every word of the query (any-word search) counts this many times its rank, and so does a document. */
const ALL_WORDS_FACTOR = 2;
/**
 * Web-search syntax (a quoted phrase, an exclusion `-word`): the user asked for exactly that, so no any-word fill. A
 * command-line option is not an exclusion (decision 0108): `--amend`, `-S` (one or two letters) are words of the query.
 * websearch_to_tsquery read "git commit --amend" as `… & !!amend`, so a question naming an option became an AND of all
 * its words, and the passages documenting the option were missed when a page held every word elsewhere.
 */
const WEB_SYNTAX = /["]|(?:^|\s)-(?!-)(?![A-Za-z]{1,2}(?:[\s,.;:?!)]|$))\S/;
/** A long command-line option (`--amend`, `--force-with-lease`). */
const LONG_OPTION = /(?<![\w-])--[A-Za-z][\w-]*/g;
/** A passage that holds one of the query's long options as written (its words in order) counts this many times its rank. */
const OPTION_FACTOR = 2;
/** A dotted name (`subprocess.run`, `json.loads`): Postgres reads it as one token, which the documents seldom write. */
const DOTTED_NAME = /(?<![\w.])[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+/g;

/**
 * The query with each dotted name's parts added after it ("subprocess.run" → "subprocess.run subprocess run"): the
 * parser keeps `subprocess.run` whole, so the page that documents `run` under the title "subprocess" never matched it.
 */
export function withNameParts(query: string): string {
  return query.replace(DOTTED_NAME, (name) => `${name} ${name.split('.').join(' ')}`);
}

/**
 * `corpus`: Postgres full-text search over a tenant's ingested documents, at passage level (docs/decisions/0038). Each
 * document is split into paragraphs by a trigger at ingest (`document_passages`: the paragraph, the short one above it
 * as its label, the document's title); a document is ranked by its best passage (`ts_rank_cd`, cover density: the
 * question's words close together score higher) plus a quarter of its next two, so a page that answers in one
 * paragraph beats a long page that names every word somewhere, however large the corpus grows. The snippet comes
 * from the best passage. A query with web-search syntax (quotes, `-word`) is read as one (`websearch_to_tsquery`), and
 * falls back to any of its words when nothing matches. Any other query — a natural-language question rarely has every
 * word in one paragraph — matches passages holding any of its lexemes, ranked so that passages holding more of them,
 * closer together, and the rarer ones (a share of the query's idf, decision 0145) come first; a passage holding all of
 * them counts double, and so does a document that holds all of them somewhere (what whole-document search found). Always filtered by tenant (and collection when given).
 */
/** The query's long options, space-separated without their dashes ("--amend --no-edit" → "amend no-edit"), or ''. */
export function longOptions(query: string): string {
  return [...new Set((query.match(LONG_OPTION) ?? []).map((o) => o.slice(2)))].join(' ');
}

export class CorpusSearchProvider implements SearchProvider {
  readonly name = 'corpus';

  constructor(private readonly db: Db) {}

  async search(input: SearchQuery): Promise<SearchHit[]> {
    const query = SearchQuerySchema.parse(input);
    const collection = query.collection ?? null;
    const text = withNameParts(query.query);
    const options = longOptions(query.query);
    let rows = WEB_SYNTAX.test(query.query) ? await this.run(text, options, false, query.tenantId, collection, query.limit) : [];
    if (rows.length === 0) rows = await this.run(text, options, true, query.tenantId, collection, query.limit);
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

  private run(
    text: string,
    options: string,
    anyTerm: boolean,
    tenantId: string,
    collection: string | null,
    limit: number,
  ): Promise<CorpusRow[]> {
    // The any-term query ORs the lexemes of plainto_tsquery, which keeps only positive terms: a `-word`
    // exclusion must not turn into "anything but word". Headlines are built for the best passage of the cut hits only.
    // `opt`: each long option as a phrase (`force-with-lease` → its lexemes in order), ORed; NULL when there is none.
    return this.db.$queryRaw<CorpusRow[]>`
      WITH q AS (
        SELECT CASE WHEN ${anyTerm}::boolean
          THEN regexp_replace(plainto_tsquery('english', ${text}::text)::text, ' (&|<->|<[0-9]+>) ', ' | ', 'g')::tsquery
          ELSE websearch_to_tsquery('english', ${text}::text)
        END AS query,
        plainto_tsquery('english', ${text}::text) AS every,
        (SELECT string_agg('(' || t::text || ')', ' | ')::tsquery
           FROM unnest(string_to_array(${options}::text, ' ')) o
           CROSS JOIN LATERAL phraseto_tsquery('english', o) t
          WHERE o <> '' AND t::text <> '') AS opt
      ),
      -- Each distinct lexeme of the query as a one-word tsquery (quoted, its backslashes and quotes escaped, as tsquery
      -- input reads them), with its rarity among the passages in scope (BM25's idf): ln(1 + (N - df + 0.5) / (df + 0.5)).
      terms AS (
        SELECT DISTINCT (chr(39) || replace(replace(l, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39))::tsquery AS term
        FROM unnest(tsvector_to_array(to_tsvector('english', ${text}::text))) l
      ),
      scope AS (
        SELECT count(*)::float8 AS n
        FROM document_passages p
        JOIN collections c ON c.id = p.collection_id AND c.tenant_id = p.tenant_id
        WHERE p.tenant_id = ${tenantId}::uuid AND (${collection}::text IS NULL OR c.name = ${collection}::text)
      ),
      weights AS MATERIALIZED (
        SELECT t.term, ln(1 + (scope.n - d.df + 0.5) / (d.df + 0.5))::float8 AS idf
        FROM terms t
        CROSS JOIN scope
        CROSS JOIN LATERAL (
          SELECT count(*)::float8 AS df
          FROM document_passages p
          JOIN collections c ON c.id = p.collection_id AND c.tenant_id = p.tenant_id
          WHERE p.tenant_id = ${tenantId}::uuid AND (${collection}::text IS NULL OR c.name = ${collection}::text)
            AND p.search_vector @@ t.term
        ) d
      ),
      rarity AS MATERIALIZED (SELECT nullif(sum(idf), 0) AS total FROM weights),
      passages AS (
        SELECT p.document_id, p.body, c.name AS collection,
               row_number() OVER (PARTITION BY p.document_id ORDER BY r.score DESC, p.position) AS k,
               r.score
        FROM document_passages p
        JOIN collections c ON c.id = p.collection_id AND c.tenant_id = p.tenant_id
        CROSS JOIN q
        CROSS JOIN rarity
        CROSS JOIN LATERAL (
          SELECT (ts_rank_cd(p.search_vector, q.query, ${RANK_NORMALIZATION}::int)
                  * CASE WHEN ${anyTerm}::boolean AND p.search_vector @@ q.every THEN ${ALL_WORDS_FACTOR}::float8 ELSE 1 END
                  * CASE WHEN q.opt IS NOT NULL AND p.search_vector @@ q.opt THEN ${OPTION_FACTOR}::float8 ELSE 1 END
                  * (1 - ${RARITY_WEIGHT}::float8 + ${RARITY_WEIGHT}::float8
                     * coalesce((SELECT sum(w.idf) FROM weights w WHERE p.search_vector @@ w.term) / rarity.total, 1)))::float8 AS score
        ) r
        WHERE p.tenant_id = ${tenantId}::uuid
          AND (${collection}::text IS NULL OR c.name = ${collection}::text)
          AND p.search_vector @@ q.query
      ),
      hits AS (
        SELECT s.document_id, s.collection,
               s.score * CASE WHEN ${anyTerm}::boolean AND d.search_vector @@ q.every THEN ${ALL_WORDS_FACTOR}::float8 ELSE 1 END AS score
        FROM (
          SELECT document_id, collection,
                 sum(CASE WHEN k = 1 THEN score ELSE ${SUPPORT_WEIGHT}::float8 * score END) AS score
          FROM passages
          WHERE k <= ${1 + SUPPORTING_PASSAGES}::int
          GROUP BY document_id, collection
        ) s
        JOIN documents d ON d.id = s.document_id
        CROSS JOIN q
        -- Ties go by path, as the engine's every order does: the same corpus gives the same hits.
        ORDER BY 3 DESC, d.path, d.id
        LIMIT ${limit}::int
      )
      SELECT d.id::text AS id, d.path, d.title, hits.collection, hits.score,
             ts_headline('english', best.body, q.query, ${HEADLINE_OPTIONS}) AS snippet
      FROM hits
      JOIN documents d ON d.id = hits.document_id
      JOIN passages best ON best.document_id = hits.document_id AND best.k = 1
      CROSS JOIN q
      ORDER BY hits.score DESC, d.path, d.id`;
  }
}
