export * from './verifier-stages.module';
