import { useEffect, useEffectEvent, useState } from 'react';
import { useLingui } from '@lingui/react';
import { errorText } from '@/lib/api-client';

/** A failure is kept as it came and said when drawn, so that the client's own texts follow a change of language. */
type Settled<T> = { key: string; data: T; failed: false } | { key: string; data: null; failed: true; error: unknown };

export interface Remote<T> {
  /** The latest data that arrived (possibly for an earlier key while a new one loads). */
  data: T | null;
  /** The failure of the current key, in the page's language. */
  error: string | null;
  /** The current key has not settled yet. */
  loading: boolean;
}

/**
 * Loads `fetcher` whenever `key` changes (null: nothing to load), after `delayMs` (a debounce for
 * quick changes such as slider moves; the first load, with nothing shown yet, starts at once).
 * Earlier requests are aborted; the last data stays shown while the next loads.
 */
export function useRemote<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>, delayMs = 0): Remote<T> {
  const { i18n } = useLingui();
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [lastData, setLastData] = useState<T | null>(null);
  const load = useEffectEvent((signal: AbortSignal) => fetcher(signal));
  const delay = useEffectEvent(() => (lastData === null ? 0 : delayMs));

  useEffect(() => {
    if (key === null) return;
    const ctrl = new AbortController();
    const start = () =>
      load(ctrl.signal).then(
        (data) => {
          if (ctrl.signal.aborted) return;
          setSettled({ key, data, failed: false });
          setLastData(data);
        },
        (e: unknown) => {
          if (!ctrl.signal.aborted) setSettled({ key, data: null, failed: true, error: e });
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
  // The server's message (in the page's language already), or "Something went wrong!" in it.
  const error = current?.failed ? errorText(current.error, i18n) : null;
  return { data: lastData, error, loading: key !== null && current === null };
}
