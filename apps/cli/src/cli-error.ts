import { ValidationError } from '@dossier/errors';

/** A problem with what the user typed: printed as one clear line, exit code 2. */
export class CliUsageError extends ValidationError {}
