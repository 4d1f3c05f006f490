/*
 * Program text in a source: a shell command, SQL, code punctuation. Never quoted as prose (decision 0046); shown as code
 * under the sentence that introduces it (decision 0102). Pure, no imports: the sentence splitter uses it to find code
 * blocks.
 */

// A sentence ends with a full stop, question or exclamation mark or an ellipsis, then closing quotes or brackets.
const CLOSED = /[.!?\u2026]["'\u201d\u2019)\]]*$/;

/** A sentence of program text: SQL, a shell command, code punctuation. */
export function isCode(s: string): boolean {
  if (/^(?:\$|#|>>>|>|%)\s+\S/.test(s)) return true;
  if (
    /^(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|CREATE|ALTER|DROP|GRANT|REVOKE|BEGIN|COMMIT|ROLLBACK|VACUUM|ANALYZE|EXPLAIN|SET|SHOW|COPY|TRUNCATE|WITH)\b/.test(
      s,
    ) &&
    (/;\s*$/.test(s) || /\b(?:FROM|WHERE|TABLE|INTO|VALUES|INDEX|TO|ON)\b/.test(s)) &&
    !/\b(?:is|are|was|were|can|will|does|do|the)\b/.test(s)
  )
    return true;
  // A command's synopsis: a command word, then bracketed options ("git merge [-n] [--stat] … [<commit>…]"), which its
  // closing "…]" made read as a closed sentence (decision 0108).
  if (/^[a-z][\w.-]*\s/.test(s) && (s.match(/\[-{1,2}\[?[\w<]/g) ?? []).length >= 2) return true;
  // A Python assignment of a literal ("data = [ ("Monty Python …", 1982, 7.9), … ]"), a traceback, or a doctest prompt
  // inside the text: python-stdlib's examples quoted as prose (decision 0127).
  if (/^[A-Za-z_][\w.]*\s*=\s*[[({'"\d]/.test(s)) return true;
  if (/^Traceback \(most recent call last\):/.test(s) || /(?:^|\s)>>>\s/.test(s)) return true;
  // Backticks are left out: documentation marks identifiers in prose with them.
  const symbols = (s.match(/[{}();=<>|&$[\]\\]/g) ?? []).length;
  if (s.length >= 12 && symbols / s.length > 0.08 && /[{};=]|\$\w|\w\(\)/.test(s)) return true;
  return (
    /^(?:sudo |git |npm |pip |psql |pg_\w+ |python3? |node |docker |kubectl |curl |cd |ls |mkdir |cat |echo )\S.*(?:\s-{1,2}\w|\s\/\S)/.test(
      s,
    ) && !CLOSED.test(s)
  );
}
