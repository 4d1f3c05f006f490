import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, messageOf } from '../../api/client';
import type { RunView } from '../../api/types';

export const TERMINAL = ['completed', 'failed', 'cancelled'];

/** A run's view, refreshed on demand (at most every 400 ms while events pour in). 404 → `missing`. */
export function useRun(runId: string) {
  const [run, setRun] = useState<RunView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef<RunView | null>(null);

  const load = useCallback(async (): Promise<RunView | null> => {
    try {
      const view = await api<RunView>('GET', `/v1/runs/${encodeURIComponent(runId)}`);
      latest.current = view;
      setRun(view);
      setError(null);
      return view;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setMissing(true);
      else setError(messageOf(err));
      return null;
    }
  }, [runId]);

  const refreshSoon = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void load();
    }, 400);
  }, [load]);

  useEffect(() => {
    void load();
    return () => {
      if (pending.current) clearTimeout(pending.current);
    };
  }, [load]);

  return { run, setRun, error, missing, load, refreshSoon, latest };
}
