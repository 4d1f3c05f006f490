// Lint fixture (docs/decisions/0031): breaks "contracts import nothing of ours"; tools/lint/test asserts the error.
import * as errors from '@dossier/errors';

export const fixture = [errors];
