// Lint fixture (docs/decisions/0031): breaks "stages never import each other"; tools/lint/test asserts the error.
import * as planner from '@dossier/stage-planner';

export const fixture = [planner];
