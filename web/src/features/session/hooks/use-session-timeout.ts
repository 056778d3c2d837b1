import { useCallback, useEffect, useRef, useState } from 'react';
import { useSessionStore } from '../stores/session-store';
import { CHECK_INTERVAL_MS, sessionPhase, type SessionPhase } from '../utils/session-phase';

export interface SessionTimeoutOptions {
  /** True when expiry matters: an application exists or an agent is logged in. */
  hasWork: () => boolean;
  /** Called once at expiry (timeout call, log the agent out locally). */
  onExpire: () => Promise<void> | void;
  /** Keeps the session alive: refresh the auth state and reload the application. */
  onContinue: () => Promise<void>;
  /** The server's idle limit in milliseconds (read at every check). */
  limitMs?: () => number | undefined;
}

/**
 * Checks the idle timer every second (spec part 1, 4.1). From 60 s before the 30-minute limit the
 * phase is `warning` with a countdown; at the limit, with work at stake, checking stops, `onExpire`
 * runs and the phase stays `expired`; without work the access time is just refreshed.
 */
export function useSessionTimeout({ hasWork, onExpire, onContinue, limitMs }: SessionTimeoutOptions) {
  const [phase, setPhase] = useState<SessionPhase>({ kind: 'active' });
  const [stopped, setStopped] = useState(false);
  const options = useRef({ hasWork, onExpire, limitMs });
  useEffect(() => {
    options.current = { hasWork, onExpire, limitMs };
  });

  useEffect(() => {
    if (stopped) return;
    const id = window.setInterval(() => {
      // The latest access of any tab of the site (the shared cookie).
      const { current, restart } = useSessionStore.getState();
      const next = sessionPhase(Date.now(), current(), options.current.limitMs?.() ?? undefined);
      const work = options.current.hasWork();
      if (next.kind === 'expired') {
        if (work) {
          window.clearInterval(id);
          setStopped(true);
          setPhase(next);
          void Promise.resolve(options.current.onExpire()).catch(() => {});
        } else {
          // Nothing to lose: this tab counts afresh (the shared time is left to API responses).
          restart();
          setPhase({ kind: 'active' });
        }
        return;
      }
      if (next.kind === 'warning' && !work) {
        setPhase({ kind: 'active' });
        return;
      }
      setPhase((prev) =>
        prev.kind === next.kind && (prev.kind !== 'warning' || next.kind !== 'warning' || prev.secondsLeft === next.secondsLeft)
          ? prev
          : next,
      );
    }, CHECK_INTERVAL_MS);
    return () => window.clearInterval(id);
  }, [stopped]);

  const continueSession = useCallback(async () => {
    await onContinue();
    useSessionStore.getState().touch();
    setPhase({ kind: 'active' });
  }, [onContinue]);

  return { phase, continueSession };
}
