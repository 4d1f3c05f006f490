export * from './extractor-stages.module';
