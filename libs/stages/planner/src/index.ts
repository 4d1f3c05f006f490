export * from './planner-stages.module';
