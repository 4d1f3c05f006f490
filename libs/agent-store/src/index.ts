// The agents' persistence ports over Postgres (docs/decisions/0034) and the run's recording (0030): what a worker lends @dossier/agents.
export { PrismaAgentStore } from './prisma-agent-store';
export { RecordedExternalAnswers } from './recorded-external-answers';
