export * from './writer-stages.module';
