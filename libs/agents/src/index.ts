// Roles: every agent role of docs/architecture.md §6 as a named export, the ROLES registry, and their schemas.
export * from './roles';

// Running roles.
export { AgentRunner, AgentCallContext, type AgentRunnerOptions, type PerRunEngines, type Play, type Traced } from './agent-runner';
export { AgentsModule, type AgentPorts, type AgentStore } from './agents.module';
export type * from './ports';
export { EXTERNAL_ANSWERS, LIVE_ANSWERS } from './ports';
export type { Engine, EngineCompletion, CallHooks, RequestEstimate, RequestRecord, RequestTicket } from './engine/engine';
export { OfflineEngine, OFFLINE_MODEL, countWords } from './engine/offline-engine';
export {
  AgentInputError,
  AgentOutputError,
  AgentCallRecordError,
  AgentRefusalError,
  LlmUnavailableError,
  LlmRequestError,
  LlmConfigError,
  ContextWindowError,
  PreflightError,
} from './errors';

// The OpenAI-compatible engine, budgets and long-context writing.
export { OpenAIEngine, type OpenAIEngineOptions } from './openai/openai-engine';
export { openAIEngineFromEnv, openAIEmbedderFromEnv, llmRateLimitKey } from './openai/openai-engine-from-env';
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai/openai-embedder';
export {
  openAIConfigFromEnv,
  roleEnvSuffix,
  DEFAULT_TEMPERATURES,
  type OpenAIConfig,
  type RoleModelConfig,
  type RoleWindow,
  type StructuredOutputMode,
} from './openai/openai-config';
export { DEFAULT_CONTEXT_TOKENS, knownContextTokens } from './openai/context-windows';
export { contextOverflow, outputRoom, promptFits, MIN_OUTPUT_TOKENS } from './openai/request-size';
export { DEFAULT_PRICES, costUsd, type ModelPrice } from './openai/prices';
export { countTokens, countMessageTokens } from './openai/tokens';
export { stripReasoning, parseJsonReply } from './openai/parse-output';
export { strictJsonSchema } from './openai/response-schema';
export { BudgetLedger, decide as decideSpend, type SpendLimits } from './budget/budget-ledger';
export { BudgetExhaustedSignal } from './budget/budget-exhausted';
export type { BudgetExhaustionSink } from './budget/budget-exhaustion-sink';
export { planBatches, draftSectionInBatches } from './writing/batch-section';
export { mergeShortSections, MIN_SECTION_SENTENCES } from './writing/merge-sections';
// The text gate of model text (decision 0041): its detectors are shared with the report lint.
export {
  leakedText,
  fragmentOf,
  headingProblem,
  nearDuplicate,
  SeenSentences,
  addHygiene,
  NO_HYGIENE,
  type HygieneCounts,
  type HygieneKind,
} from './writing/model-text';
export { gateModelText, scrubbed, type GateResult } from './writing/text-gate';

// Prompts.
export { buildPrompt, listWithIds, type Prompt, type PromptSpec } from './prompt/build-prompt';
export { dataBlock, DATA_POLICY } from './prompt/data-block';

// Offline NLP primitives (usable by other stages, e.g. near-duplicate evidence or verification).
export { splitSentences, splitUnits, listMarkerLength, type Span, type Unit as TextUnit, type UnitKind } from './offline/nlp/sentences';
export { tokenize, STOPWORDS, contentWords, contentStems, stem, isNumericToken } from './offline/nlp/tokens';
export { extractKeyphrases, type Keyphrase, type KeyphraseOptions } from './offline/nlp/keyphrases';
export { Bm25Index, type Bm25Hit } from './offline/nlp/bm25';
export { termCounts, tfidfVectors, inverseDocumentFrequencies, cosine, type TermVector } from './offline/nlp/tfidf';
export { mmr, type MmrCandidate } from './offline/nlp/mmr';
export { groupNearDuplicates, shingles, jaccard, type NearDuplicateOptions } from './offline/nlp/near-duplicates';
export { extractQuantities, comparable, sameQuantity, isTime, yearOf, type Quantity, type QuantityKind } from './offline/nlp/quantities';
export {
  detectContradiction,
  contradictionBetween,
  prepareStatement,
  SAME_SUBJECT_THRESHOLD,
  type PreparedStatement,
  type ContradictionFinding,
  type ContradictionKind,
} from './offline/nlp/contradiction';
export { entails, SUPPORT_THRESHOLD, type EntailmentResult, type EntailmentVerdict } from './offline/nlp/entailment';
export { negationCues, statementStems, stripCitations, normalizeWhitespace } from './offline/nlp/statement-terms';
export { isBoilerplate } from './offline/nlp/boilerplate';
export { pointsAtSeveral, pointsBack, sidePointer, withoutSidePointer } from './offline/nlp/back-reference';
export { isWholeQuote, quotedWithSpeaker, speakerNamed } from './offline/nlp/quotation';
export {
  proseFault,
  withoutCitationMarkers,
  readerSentence,
  CITATION_MARKER,
  MAINTENANCE_MARKER,
  HTML_ELEMENT,
  REST_MARKUP,
  type ProseFault,
  type ProseFaultKind,
  type BoilerplateKind,
  type FragmentKind,
} from './offline/nlp/prose-faults';
export { excerptContexts } from './offline/passage-relevance';
export { relevanceModel, type RelevanceModel } from './offline/answer-relevance';
export { templateQuestion } from './offline/template-questions';
export { commonTerm, describedTerms, differentTerms, passageTerms, type SourcePassage } from './offline/described-terms';
export { namedByQuestion, pagesNamedMostPrecisely } from './offline/page-names';
export { attributed, documentVoice, isFirstPerson, isMethodStatement } from './offline/nlp/first-person';
export { codeIntroduced, isLeadIn } from './offline/nlp/lists';
export { statesStatement } from './offline/nlp/states-statement';
export { keptAnalyses } from './offline/nlp/kept-analyses';
export { fromDistinctSources, opposedStatements, opposingPairs, placesDisputedOnset } from './offline/nlp/disputes';
export { explainsDifference, describeDifference, namePoint } from './offline/nlp/dispute-reason';

// Verification: the deterministic guard (numbers, dates, units, names, negations), shared with the eval system.
export {
  guardSentence,
  describeGuardProblems,
  namedEntities,
  type GuardResult,
  type GuardProblem,
  type GuardProblemKind,
  type GuardOptions,
} from './verification/guard';
export {
  verifySentences,
  verifyAndRepair,
  countJudge,
  NO_FIGURES,
  type JudgedBy,
  type SentenceToVerify,
  type SentenceCheck,
  type Verdict,
  type VerifiedSentence,
  type CheckRecord,
  type VerifyAndRepairResult,
  type VerificationFigures,
} from './verification/verify-sentences';
