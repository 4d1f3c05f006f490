// Lint fixture (docs/decisions/0031): breaks "the engine knows no stage, agent or source"; tools/lint/test asserts the errors.
import * as agents from '@dossier/agents';
import * as sources from '@dossier/sources';
import * as planner from '@dossier/stage-planner';

export const fixture = [agents, sources, planner];
