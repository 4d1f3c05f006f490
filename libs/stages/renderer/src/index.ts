export * from './renderer-stages.module';
export * from './render/report-builder';
