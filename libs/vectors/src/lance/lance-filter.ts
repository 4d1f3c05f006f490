import type { VectorFilter } from '../vector-store';

/**
 * A SQL string literal for LanceDB's filter language: single quotes doubled, nothing else special (its parser
 * reads backslashes literally). The port's values are UUIDs and kind names, but a filter is built from
 * whatever a caller passed, so it is quoted as if it were hostile.
 */
export function sqlLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The port's conjunction as a LanceDB predicate; column names in backticks (they are mixed case). */
export function toPredicate(filter: VectorFilter): string {
  const terms = [`\`tenantId\` = ${sqlLiteral(filter.tenantId)}`];
  if (filter.runId !== undefined) terms.push(`\`runId\` = ${sqlLiteral(filter.runId)}`);
  if (filter.kind !== undefined) terms.push(`\`kind\` = ${sqlLiteral(filter.kind)}`);
  return terms.join(' AND ');
}
