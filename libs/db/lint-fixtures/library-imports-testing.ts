// Lint fixture (docs/decisions/0031): breaks "no library imports libs/testing outside tests"; tools/lint/test asserts the error.
import * as testing from '@dossier/testing';

export const fixture = [testing];
