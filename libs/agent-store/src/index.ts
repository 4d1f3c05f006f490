// The agents' persistence ports over Postgres (docs/decisions/0034): what a worker lends @dossier/agents.
export { PrismaAgentStore } from './prisma-agent-store';
