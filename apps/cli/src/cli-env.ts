// Declared in libs/config with every other variable (issue 26); re-exported where the CLI's files import it.
export { CliEnv } from '@dossier/config';
