export * from './errors';
export * from './extract/extraction';
export { normalizeText } from './extract/normalize-text';
export { decodeText, MAX_CONTROL_RATIO, MAX_INVALID_UTF8_RATIO } from './extract/text-decoding';
export { extractPlainText } from './extract/extract-plain-text';
export { looksLikeRest, restInline, restToText } from './extract/rest-text';
export { extractHtml } from './extract/extract-html';
export { htmlToText, type DomNode } from './extract/html-to-text';
export { extractPdf } from './extract/extract-pdf';
export { extractBytes } from './extract/extract-file';
export { EXTRACTION_LIMITS, extractInThread, type ExtractionLimits } from './extract/extract-in-thread';
export { ExtractionPool } from './extract/extraction-pool';
export { assertInflationWithin } from './extract/pdf-inflation';
export * from './ingest/ingest-types';
export { ingestPaths, contentHash } from './ingest/ingest-paths';
// The corpus' queries are libs/db's (decision 0093); re-exported here, where their users found them.
export { ensureCollection, listCollections, findCollection, listDocuments, type DocumentListing } from '@dossier/db';
export { removeDocuments } from './ingest/collection-queries';
export { chooseDocuments, globToRegExp, type SkippedFile } from './ingest/documentation-folder';
export { MAX_FILE_BYTES, readSourceFile, type SourceFile } from './ingest/read-source-file';
export { walkPaths, type WalkedFile, type WalkFailure, type WalkResult } from './ingest/walk-paths';
export { planBatch, type BatchPlan, type Candidate, type Outcome, type StoredDocument } from './ingest/plan-batch';
export * from './search/search-provider';
export { corpusUrl, parseCorpusUrl } from './search/corpus-url';
export { CorpusSearchProvider } from './search/corpus-search-provider';
export { RecordedSearchProvider } from './search/recorded-search-provider';
export { SnapshotStore } from './snapshots/snapshot-store';
export type { SnapshotRow } from '@dossier/db';
export { assertExcerpt, assertRange, sliceText } from './snapshots/excerpt';
export { SourcesModule } from './sources.module';
export * from './fetch/errors';
export { isForbiddenAddress, parseNumericHost } from './fetch/address-policy';
export { cidrContains, parseCidr, parseIp, type Cidr, type IpFamily, type ParsedIp } from './fetch/ip-math';
export {
  DEFAULT_ALLOWED_CONTENT_TYPES,
  FetchPolicy,
  fetchPolicyFromEnv,
  type FetchPolicyFromEnvOptions,
  type FetchPolicyInput,
} from './fetch/fetch-policy';
export { parseContentType, type ContentType } from './fetch/http-headers';
export { SafeFetcher, type FetchedPage, type ResolvedAddress, type Resolver, type SafeFetcherDeps } from './fetch/safe-fetcher';
export { decodeBody, metaCharset, type DecodeBodyOptions } from './fetch/decode-body';
export { readHtmlMetadata, type HtmlMetadata } from './fetch/html-metadata';
export { documentFromPage, fetchDocument, type FetchedDocument } from './fetch/fetch-document';
export {
  DEFAULT_SNAPSHOT_MAX_AGE_MS,
  fetchSnapshot,
  snapshotUrl,
  type FetchSnapshotOptions,
  type FetchSnapshotResult,
} from './fetch/cached-fetch';
// The rate limiter lives in libs/telemetry, a layer its users (agents, the gateway's auth) may import (issue 26).
export {
  type RateLimiter,
  type RateLimitOptions,
  RateLimitOptionsSchema,
  InProcessRateLimiter,
  RedisRateLimiter,
  type RedisRateLimitOptions,
  GCRA_SCRIPT,
  sleep,
} from '@dossier/telemetry';
export * from './search/providers/errors';
export {
  httpJson,
  DEFAULT_RETRY_POLICY,
  DEFAULT_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  type HttpJsonRequest,
  type RetryPolicy,
} from './search/providers/http-json';
export { plainText } from './search/providers/plain-text';
export type { WebProviderOptions } from './search/providers/web-provider-options';
export { TavilySearchProvider, TAVILY_DEFAULT_BASE_URL, TAVILY_DEFAULT_RATE_PER_SECOND } from './search/providers/tavily-search-provider';
export {
  BraveSearchProvider,
  BRAVE_DEFAULT_BASE_URL,
  BRAVE_DEFAULT_RATE_PER_SECOND,
  braveQuery,
} from './search/providers/brave-search-provider';
export { braveRateLimitWaitMs } from './search/providers/brave-rate-limit-headers';
export { SearxngSearchProvider, SEARXNG_DEFAULT_RATE_PER_SECOND } from './search/providers/searxng-search-provider';
export { webProvidersFromEnv, type WebProvidersOptions } from './search/providers/web-providers-from-env';
export { searchAll, RRF_K, type MergedSearchHit, type MultiSearchResult } from './search/multi-search';
export { canonicalUrl, hostOf } from './policy/canonical-url';
export { CanonicalUrlError } from './policy/errors';
export { AuthorityClassSchema, type AuthorityClass } from './policy/authority-class';
export { authorityOf, authorityOfWords } from './policy/authority';
export { hostMatchesDomain, normaliseDomain } from './policy/domain-match';
export {
  SourcePolicySchema,
  isAllowedByPolicy,
  type SourcePolicy,
  type SourcePolicyInput,
  type PolicyDecision,
} from './policy/source-policy';
export { parseRobots, patternMatches, MAX_ROBOTS_CHARS, type RobotsMatcher } from './policy/robots';
export { RobotsCache, type RobotsCacheOptions } from './policy/robots-cache';
