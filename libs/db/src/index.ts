export * from './prisma.service';
export * from './db.module';
export * from './repositories';
export * from './identity/api-key-secret';
export * from './insert-or-find';
export * from './views/verification-figures';
export * from './views/publish-preview';
export * from './recordings';
