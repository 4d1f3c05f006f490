export * from './test-database';
export * from './wait-for';
export * from './child-service';
export * from './fake-openai/fake-openai-server';
export * from './fake-openai/fake-openai-types';
export * from './fake-openai/realistic-model';
export { canonicalTokens, conceptEmbedding, paraphrase, seededRandom } from './fake-openai/concepts';
export * from './otlp-receiver';
export * from './qdrant-double';
