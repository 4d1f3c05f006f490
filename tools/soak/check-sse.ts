import { sql } from '@dossier/testing';
import type { FollowedRun } from './follower';

export interface SseSummary {
  runsFollowed: number;
  /** Streams followed to their end (the run terminal and every event sent). */
  finished: number;
  eventsInLog: number;
  eventsReceived: number;
  /**
   * run_events rows the follower never received although it received a later one (a gap), or that a finished
   * stream never delivered; events it received more than once, or that are not in the log.
   */
  missed: number;
  /** Events of streams that never finished, after the last one received (not delivered yet when the soak ended). */
  undeliveredTail: number;
  duplicated: number;
  foreign: number;
  connections: number;
  drops: number;
  brokenConnections: number;
  runsWithProblems: { runId: string; missed: number; duplicated: number; foreign: number; finished: boolean }[];
}

/** What the follower received against the run's durable event log (run_events), event by event. */
export async function checkSse(url: string, followed: FollowedRun[]): Promise<SseSummary> {
  const ids = followed.map((f) => f.runId);
  const rows = ids.length
    ? await sql<{ run_id: string; seq: number; type: string }>(
        url,
        'SELECT run_id, seq, type FROM run_events WHERE run_id = ANY($1::uuid[])',
        [ids],
      )
    : [];
  const log = new Map<string, Map<number, string>>();
  for (const r of rows) {
    if (!log.has(r.run_id)) log.set(r.run_id, new Map());
    log.get(r.run_id)!.set(r.seq, r.type);
  }
  const summary: SseSummary = {
    runsFollowed: followed.length,
    finished: followed.filter((f) => f.finished).length,
    eventsInLog: rows.length,
    eventsReceived: 0,
    missed: 0,
    undeliveredTail: 0,
    duplicated: 0,
    foreign: 0,
    connections: 0,
    drops: 0,
    brokenConnections: 0,
    runsWithProblems: [],
  };
  for (const f of followed) {
    const expected = log.get(f.runId) ?? new Map<number, string>();
    const seen = new Map<number, number>();
    let foreign = 0;
    for (const e of f.received) {
      seen.set(e.seq, (seen.get(e.seq) ?? 0) + 1);
      if (expected.get(e.seq) !== e.type) foreign++;
    }
    const lastSeen = Math.max(0, ...seen.keys());
    const notSeen = [...expected.keys()].filter((seq) => !seen.has(seq));
    const tail = f.finished ? 0 : notSeen.filter((seq) => seq > lastSeen).length;
    const missed = notSeen.length - tail;
    summary.undeliveredTail += tail;
    const duplicated = [...seen.values()].reduce((n, c) => n + c - 1, 0);
    summary.eventsReceived += f.received.length;
    summary.missed += missed;
    summary.duplicated += duplicated;
    summary.foreign += foreign;
    summary.connections += f.connections;
    summary.drops += f.drops;
    summary.brokenConnections += f.broken;
    if (missed || duplicated || foreign || !f.finished)
      summary.runsWithProblems.push({ runId: f.runId, missed, duplicated, foreign, finished: f.finished });
  }
  return summary;
}
