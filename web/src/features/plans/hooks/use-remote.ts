import { useEffect, useEffectEvent, useState } from 'react';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';

/** The message of a failed call: the server's, or "Something went wrong!". */
export function errorMessage(e: unknown): string {
  return e instanceof ApiError && e.message ? e.message : GENERIC_ERROR;
}

type Settled<T> = { key: string; data: T; error: null } | { key: string; data: null; error: string };

export interface Remote<T> {
  /** The latest data that arrived (possibly for an earlier key while a new one loads). */
  data: T | null;
  /** The failure of the current key. */
  error: string | null;
  /** The current key has not settled yet. */
  loading: boolean;
}

/**
 * Loads `fetcher` whenever `key` changes (null: nothing to load), after `delayMs` (a debounce for
 * quick changes such as slider moves). Earlier requests are aborted; the last data stays shown
 * while the next loads.
 */
export function useRemote<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>, delayMs = 0): Remote<T> {
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [lastData, setLastData] = useState<T | null>(null);
  const load = useEffectEvent((signal: AbortSignal) => fetcher(signal));
  const delay = useEffectEvent(() => delayMs);

  useEffect(() => {
    if (key === null) return;
    const ctrl = new AbortController();
    const start = () =>
      load(ctrl.signal).then(
        (data) => {
          if (ctrl.signal.aborted) return;
          setSettled({ key, data, error: null });
          setLastData(data);
        },
        (e: unknown) => {
          if (!ctrl.signal.aborted) setSettled({ key, data: null, error: errorMessage(e) });
        },
      );
    const wait = delay();
    const timer = wait > 0 ? setTimeout(start, wait) : null;
    if (timer === null) void start();
    return () => {
      if (timer !== null) clearTimeout(timer);
      ctrl.abort();
    };
  }, [key]);

  const current = settled && settled.key === key ? settled : null;
  return { data: lastData, error: current?.error ?? null, loading: key !== null && current === null };
}
