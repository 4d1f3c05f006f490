export * from './test-database';
export * from './wait-for';
export * from './child-service';
export * from './fake-openai/fake-openai-server';
export * from './fake-openai/fake-openai-types';
export * from './otlp-receiver';
export * from './qdrant-double';
export * from './tcp-proxy';
