export * from './test-database';
export * from './wait-for';
export * from './child-service';
export * from './otlp-receiver';
export * from './qdrant-double';
