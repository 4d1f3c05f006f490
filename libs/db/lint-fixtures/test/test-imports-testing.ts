// Lint fixture (docs/decisions/0031): the same import as ../library-imports-testing.ts, allowed in a test folder.
import * as testing from '@dossier/testing';

export const fixture = [testing];
