import { UnrecoverableError, type DossierErrorOptions } from '@dossier/errors';

/** No key, a malformed key, an unknown key or a revoked one: all look the same to the caller. */
export class AuthenticationError extends UnrecoverableError {
  readonly code = 'unauthorized';
}

/** Unknown resource, or another tenant's (never told apart: a 404, not a 403). */
export class NotFoundError extends UnrecoverableError {
  readonly code = 'not_found';
}

/** The request is well-formed but beyond the tenant's policy; `details.cap` names the limit. */
export class PolicyViolationError extends UnrecoverableError {
  readonly code = 'policy_violation';
}

export class RateLimitedError extends UnrecoverableError {
  readonly code = 'rate_limited';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options: DossierErrorOptions = {},
  ) {
    super(message, options);
  }
}

export class NotAcceptableError extends UnrecoverableError {
  readonly code = 'not_acceptable';
}

export class MethodNotAllowedError extends UnrecoverableError {
  readonly code = 'method_not_allowed';
}

export class ConflictError extends UnrecoverableError {
  readonly code = 'conflict';
}

/** The key is valid but its principal's role does not allow this (a viewer changing something). */
export class ForbiddenError extends UnrecoverableError {
  readonly code = 'forbidden';
}

/** A request body in a media type the endpoint does not take (JSON only; multipart where documented). */
export class UnsupportedMediaTypeError extends UnrecoverableError {
  readonly code = 'unsupported_media_type';
}

/** A share link that worked once and no longer does (revoked or expired): `details.reason` says which. */
export class ShareGoneError extends UnrecoverableError {
  readonly code = 'share_gone';
}
