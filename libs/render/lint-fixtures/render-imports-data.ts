// Lint fixture (issue 26, decision 0080): breaks "render reads what it is given, never the database"; tools/lint/test asserts the error.
import * as db from '@dossier/db';

export const fixture = [db];
