// Lint fixture (docs/decisions/0031): breaks "vectors know no pipeline"; tools/lint/test asserts the error.
import * as workflow from '@dossier/workflow';

export const fixture = [workflow];
