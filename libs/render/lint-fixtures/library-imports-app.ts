// Lint fixture (docs/decisions/0031): breaks "libraries never import apps"; tools/lint/test asserts the error.
import * as conductor from '@dossier/conductor';

export const fixture = [conductor];
