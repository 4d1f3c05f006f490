import { ValidationError } from '@dossier/errors';

export class UnknownSearchProviderError extends ValidationError {}
