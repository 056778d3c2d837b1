// Idle-session constants of spec part 1, 9.
export const IDLE_LIMIT_MS = 30 * 60 * 1000;
export const WARNING_BEFORE_MS = 60 * 1000;
export const CHECK_INTERVAL_MS = 1000;

export type SessionPhase = { kind: 'active' } | { kind: 'warning'; secondsLeft: number } | { kind: 'expired' };

/**
 * Where the idle timer stands `now`, given the last successful API response and the server's idle
 * limit (`/api/site` `idle_seconds`; 30 minutes unless the server is configured otherwise).
 */
export function sessionPhase(now: number, lastAccess: number, limitMs: number = IDLE_LIMIT_MS): SessionPhase {
  const remaining = lastAccess + limitMs - now;
  if (remaining <= 0) return { kind: 'expired' };
  if (remaining <= WARNING_BEFORE_MS) return { kind: 'warning', secondsLeft: Math.ceil(remaining / 1000) };
  return { kind: 'active' };
}
