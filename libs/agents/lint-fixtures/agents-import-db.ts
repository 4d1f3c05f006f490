// Lint fixture (docs/decisions/0034): breaks "agents know no database"; tools/lint/test asserts the error.
import { PrismaService } from '@dossier/db';

export const fixture = PrismaService;
