export * from './claims-stages.module';
