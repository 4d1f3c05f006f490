import { defineConfig } from 'prisma/config';

// The URL lives here, not in schema.prisma (Prisma 7). The CLI needs it only for migrate commands.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/dossier' },
});
