import { ApiError, messageOf } from '../api/client';

interface Issue {
  path?: string;
  message?: string;
  code?: string;
}

/** One issue of a 400 as a sentence about the field as the form names it. */
function sentence(issue: Issue, labels: Record<string, string>): string {
  const field = labels[issue.path ?? ''] ?? 'A value';
  switch (issue.code) {
    case 'too_small':
      return `${field} is too short or too small.`;
    case 'too_big':
      return `${field} is too long or too large.`;
    case 'invalid_format':
    case 'invalid_string':
      // The contracts word their patterns for people ("a host name such as example.com").
      return issue.message && /^(a|an) /i.test(issue.message)
        ? `${field} should be ${issue.message}.`
        : `${field} is not in the expected form.`;
    default:
      return `${field} is not valid.`;
  }
}

/**
 * What went wrong, in words a person acts on: a refused form names its fields as the form does ("The domain should be
 * a host name such as example.com."), never the API's "Invalid request body: domain: …"; anything else as messageOf.
 */
export function wordsOf(err: unknown, labels: Record<string, string>): string {
  if (err instanceof ApiError && err.status === 400) {
    const issues = (err.details as { issues?: Issue[] } | null)?.issues;
    if (Array.isArray(issues) && issues.length > 0) return issues.map((i) => sentence(i, labels)).join(' ');
  }
  return messageOf(err);
}
