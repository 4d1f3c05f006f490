// Lint fixture (docs/decisions/0031): breaks "agents know no pipeline"; tools/lint/test asserts the errors.
import * as queue from '@dossier/queue';
import * as workflow from '@dossier/workflow';

export const fixture = [queue, workflow];
