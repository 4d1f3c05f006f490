import { ValidationError } from '@dossier/errors';

/** An eval set that breaks the format (docs/decisions/0021): the message names the set, the field and the problem. */
export class EvalSetError extends ValidationError {}

/** An eval report (`eval.json`) that is not one: compare names the file. */
export class EvalReportError extends ValidationError {}
