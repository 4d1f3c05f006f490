/** What the agents read of a run: its options (the engine and budgets it chose) and which budget ran out, if any. */
export interface RunSettings {
  /** The run's stored options, unparsed: the runner parses them with RunOptions and falls back to offline. */
  options: unknown;
  budgetExhausted: string | null;
}

/** Port: a run's settings by id, within its tenant (research_runs); null when there is no such run. */
export interface RunSettingsSource {
  runSettings(tenantId: string, runId: string): Promise<RunSettings | null>;
}
