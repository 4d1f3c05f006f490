import { z } from 'zod';
import { blankIsUnset } from './model-env';

// Web search and fetch settings, parsed by libs/sources (webProvidersFromEnv, fetchPolicyFromEnv) in the searcher.

/** Requests per second of each web search provider when its *_RATE_PER_SECOND is unset (its free tier's pace). */
export const TAVILY_DEFAULT_RATE_PER_SECOND = 5;
export const BRAVE_DEFAULT_RATE_PER_SECOND = 1;
export const SEARXNG_DEFAULT_RATE_PER_SECOND = 2;

/** Unset and blank are the same: a compose file often passes `TAVILY_API_KEY=` through. */
const optionalText = () => z.preprocess(blankIsUnset, z.string().trim().optional());
const rate = (fallback: number) => z.preprocess(blankIsUnset, z.coerce.number().positive().finite().default(fallback));

export const WebSearchEnv = z.object({
  TAVILY_API_KEY: optionalText().describe('Tavily API key: web search through Tavily'),
  TAVILY_BASE_URL: optionalText().describe("Tavily's API URL; unset: https://api.tavily.com"),
  TAVILY_RATE_PER_SECOND: rate(TAVILY_DEFAULT_RATE_PER_SECOND).describe('Tavily searches per second, shared by every worker'),
  BRAVE_API_KEY: optionalText().describe('Brave Search API key: web search through Brave'),
  BRAVE_BASE_URL: optionalText().describe("Brave Search's API URL; unset: https://api.search.brave.com"),
  BRAVE_RATE_PER_SECOND: rate(BRAVE_DEFAULT_RATE_PER_SECOND).describe('Brave searches per second, shared by every worker'),
  SEARXNG_URL: optionalText().describe('URL of a SearXNG instance: web search through it'),
  SEARXNG_RATE_PER_SECOND: rate(SEARXNG_DEFAULT_RATE_PER_SECOND).describe('SearXNG searches per second, shared by every worker'),
});

const Integer = z.string().trim().regex(/^\d+$/, 'a whole number').transform(Number);
const List = z.string().transform((s) =>
  s
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== ''),
);

/** NODE_ENV: read where tests open something production keeps shut (the fetcher's allowlist, the model test echo). */
export const NodeEnv = z.object({
  NODE_ENV: z.string().optional().describe('test: honours the test-only settings (DOSSIER_FETCH_TEST_ALLOWLIST, DOSSIER_LLM_TEST_ECHO)'),
});

/** The fetcher's policy settings; unset ones keep FetchPolicy's defaults (libs/sources/src/fetch/fetch-policy.ts). */
export const FetchEnv = z
  .object({
    DOSSIER_FETCH_MAX_BYTES: Integer.optional().describe('Fetched bodies are cut at this many bytes (after decompression); unset: 5 MiB'),
    DOSSIER_FETCH_TIMEOUT_MS: Integer.optional().describe('Timeout of a whole fetch, redirects and body included; unset: 15 000'),
    DOSSIER_FETCH_ALLOWED_PORTS: List.pipe(z.array(Integer))
      .optional()
      .describe('Comma-separated ports the fetcher may connect to; unset: 80, 443, 8080, 8443'),
    DOSSIER_FETCH_TEST_ALLOWLIST: List.optional().describe(
      'Tests only (NODE_ENV=test, ignored otherwise): ip:port or CIDRs the SSRF guard lets through',
    ),
  })
  .extend(NodeEnv.shape);
