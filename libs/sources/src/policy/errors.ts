import { UnrecoverableError } from '@dossier/errors';

/** A source URL that does not parse: a broken link cannot be canonicalised, fetched or cited. */
export class CanonicalUrlError extends UnrecoverableError {
  readonly code = 'canonical_url_invalid';
}
