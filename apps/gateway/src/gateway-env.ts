// Declared in libs/config with every other variable (issue 26); re-exported where the gateway's files import it.
export { GatewayEnv } from '@dossier/config';
