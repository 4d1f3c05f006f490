export * from './searcher-stages.module';
