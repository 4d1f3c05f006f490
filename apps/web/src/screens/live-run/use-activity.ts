import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { RunActivityView } from '../../api/types';

/**
 * What the run's steps work on (queries, sources read, claims), refetched at most once a second while events
 * arrive. A failed fetch keeps what was shown: the timeline still stands on the events alone.
 */
export function useActivity(runId: string) {
  const [activity, setActivity] = useState<RunActivityView | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  const load = useCallback(async () => {
    try {
      setActivity(await api<RunActivityView>('GET', `/v1/runs/${encodeURIComponent(runId)}/activity`));
    } catch {
      // Shown again on the next event; the steps and counters do not depend on it.
    }
  }, [runId]);

  const refreshSoon = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void load();
    }, 1_000);
  }, [load]);

  useEffect(() => {
    void load();
    return () => {
      if (pending.current) clearTimeout(pending.current);
    };
  }, [load]);

  return { activity, refreshSoon };
}
