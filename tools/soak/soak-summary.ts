import type { AuditSummary } from './check-audit';
import type { ModelCallsSummary } from './check-model-calls';
import type { DuplicateOutputs } from './check-outputs';
import type { RunsSummary } from './check-runs';
import type { SseSummary } from './check-sse';
import type { ChaosRecord } from './chaos';
import type { SoakConfig } from './soak-config';

export interface ChaosSummary {
  kills: number;
  killsByService: Record<string, number>;
  flushes: number;
  postgresOutages: number;
  postgresDownSeconds: number;
  /** Service processes that died on their own (restarted by the soak's supervisor). */
  crashes: Record<string, number>;
  errors: string[];
}

export interface SoakSummary {
  ok: boolean;
  /** Every check that did not hold, in words. Empty when ok. */
  problems: string[];
  config: SoakConfig;
  seconds: { total: number; setup: number; chaos: number };
  runs: RunsSummary;
  duplicateOutputs: DuplicateOutputs;
  modelCalls: ModelCallsSummary;
  audit: AuditSummary;
  sse: SseSummary;
  chaos: ChaosSummary;
  /** Gateway answers by status over the whole soak (the client's view), and the first 5xx bodies. */
  gateway: { statuses: Record<string, number>; serverErrors: string[] };
  /** Where the services' logs were kept (on failure or --keep-logs), else null. */
  logs: string | null;
}

export function chaosSummary(record: ChaosRecord, crashes: Record<string, number>): ChaosSummary {
  const killsByService: Record<string, number> = {};
  for (const k of record.kills) killsByService[k.service] = (killsByService[k.service] ?? 0) + 1;
  return {
    kills: record.kills.length,
    killsByService,
    flushes: record.flushes.length,
    postgresOutages: record.outages.length,
    postgresDownSeconds: Math.round(record.outages.reduce((n, o) => n + (o.to - o.from), 0) / 100) / 10,
    crashes,
    errors: record.errors,
  };
}

/** Every property the soak promises, as a list of what failed. */
export function problemsOf(s: Omit<SoakSummary, 'ok' | 'problems' | 'logs'>): string[] {
  const p: string[] = [];
  const { runs, duplicateOutputs: d, modelCalls: m, audit, sse, chaos, config } = s;
  if (runs.submitted < config.runs) p.push(`only ${runs.submitted} of ${config.runs} runs were acknowledged`);
  if (runs.unfinished > 0) p.push(`${runs.unfinished} runs lost (not finished by the end)`);
  if (runs.failed + runs.cancelled > 0) p.push(`${runs.failed + runs.cancelled} runs failed`);
  if (runs.duplicateRuns > 0) p.push(`${runs.duplicateRuns} runs created twice`);
  if (runs.rejectedSubmissions > 0) p.push(`${runs.rejectedSubmissions} submissions refused with a 4xx`);
  if (runs.replays.sameRun !== runs.replays.checked)
    p.push(`${runs.replays.checked - runs.replays.sameRun} idempotent replays returned another run`);
  if (d.steps > 0) p.push(`${d.steps} steps have outputs more than once`);
  if (m.paidTwice > 0) p.push(`${m.paidTwice} model requests paid twice`);
  if (m.lostInFlight.unexplained > 0)
    p.push(`${m.lostInFlight.unexplained} model requests paid again with no kill or outage to explain it`);
  if (m.unrecordedPaid + m.recordedNotPaid + m.usageMismatches > 0) {
    p.push(
      `llm_calls disagree with the model server (${m.unrecordedPaid} unrecorded, ${m.recordedNotPaid} phantom, ${m.usageMismatches} usage)`,
    );
  }
  if (audit.broken.length > 0) p.push(`${audit.broken.length} audit chains do not verify`);
  if (sse.missed + sse.duplicated + sse.foreign > 0)
    p.push(`SSE: ${sse.missed} events missed, ${sse.duplicated} duplicated, ${sse.foreign} not in the log`);
  if (sse.finished < sse.runsFollowed) p.push(`SSE: ${sse.runsFollowed - sse.finished} streams never reached their end`);
  if (chaos.kills < config.kills) p.push(`only ${chaos.kills} of ${config.kills} kills applied`);
  if (chaos.flushes < config.flushes) p.push(`only ${chaos.flushes} of ${config.flushes} Redis flushes applied`);
  if (chaos.postgresOutages < config.outages) p.push(`only ${chaos.postgresOutages} of ${config.outages} Postgres outages applied`);
  if ((s.gateway.statuses['500'] ?? 0) > 0)
    p.push(`the gateway answered 500 ${s.gateway.statuses['500']} times (see gateway.serverErrors)`);
  const crashed = Object.entries(chaos.crashes).filter(([, n]) => n > 0);
  if (crashed.length > 0) p.push(`service processes died on their own: ${crashed.map(([s, n]) => `${s} ×${n}`).join(', ')}`);
  if (chaos.errors.length > 0) p.push(...chaos.errors);
  return p;
}
