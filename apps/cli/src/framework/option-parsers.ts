import { CliUsageError } from '../cli-error';

/** Flag parsers: each names the flag and what it takes in its error, as the user typed it. */
export function positiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`--${flag} must be a whole number ≥ 1, got "${value}"`);
    return n;
  };
}

export function positiveNumber(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new CliUsageError(`--${flag} must be a number > 0, got "${value}"`);
    return n;
  };
}

export function oneOf<T extends string>(flag: string, choices: readonly T[]) {
  return (value: string): T => {
    if (!(choices as readonly string[]).includes(value)) {
      throw new CliUsageError(`--${flag} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}, got "${value}"`);
    }
    return value as T;
  };
}

/** A repeatable flag: every occurrence is kept, in order. */
export function collect(value: string, previous: unknown): string[] {
  return [...((previous as string[] | undefined) ?? []), value];
}

/** Comma-separated names (`--search searxng,corpus`). */
export function nameList(flag: string, example: string) {
  return (value: string): string[] => {
    const names = value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    if (names.length === 0 || names.some((p) => !/^[a-z][a-z0-9_-]*$/.test(p))) {
      throw new CliUsageError(`--${flag} takes names separated by commas, e.g. ${example}; got "${value}"`);
    }
    return names;
  };
}

/** Comma-separated choices, each one of `choices`, without repeats (`--format md,pdf`). */
export function choiceList<T extends string>(flag: string, choices: readonly T[]) {
  return (value: string): T[] => {
    const names = [...new Set(value.split(',').map((p) => p.trim()))].filter(Boolean);
    const wrong = names.filter((n) => !(choices as readonly string[]).includes(n));
    if (names.length === 0 || wrong.length > 0) {
      throw new CliUsageError(`--${flag} takes ${choices.join(', ')} separated by commas; got "${value}"`);
    }
    return names as T[];
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function runIdArg(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw new CliUsageError(`"${value ?? ''}" is not a run id (a UUID, as printed by dossier runs)`);
  return value;
}
