// Lint fixture (docs/decisions/0031): breaks "sources know no pipeline"; tools/lint/test asserts the error.
import * as workflow from '@dossier/workflow';

export const fixture = [workflow];
