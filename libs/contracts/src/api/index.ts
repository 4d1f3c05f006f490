export * from './api-error';
export * from './runs-api';
export * from './collections-api';
export * from './me-api';
export * from './nodes-api';
export * from './capabilities-api';
export * from './activity-api';
export * from './shares-api';
