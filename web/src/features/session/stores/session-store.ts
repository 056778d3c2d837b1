import { create } from 'zustand';

// The last-access time (spec part 1, 4.1: "kept in a cookie and refreshed on every successful API
// response"): a cookie of this site, so every tab of the site shares it and a reload keeps it. It
// holds a time only (epoch ms), is not HttpOnly (the page writes it) and the server ignores it.

export const LAST_ACCESS_COOKIE = 'ef_last_access';

/** The time in the cookie, or null when there is none (or it is not a time). */
export function readLastAccessCookie(): number | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LAST_ACCESS_COOKIE && value && /^\d{1,15}$/.test(value)) return Number(value);
  }
  return null;
}

function writeLastAccessCookie(ms: number) {
  if (typeof document === 'undefined') return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LAST_ACCESS_COOKIE}=${Math.floor(ms)}; Path=/; SameSite=Lax${secure}`;
}

interface SessionStore {
  /** Epoch ms of the last successful API response (spec part 1, 4.1), as this tab last saw it. */
  lastAccess: number;
  /** A successful API response (or Continue in the warning): this tab and the shared cookie. */
  touch: (now?: number) => void;
  /**
   * Start this tab's idle count again without telling the other tabs (an idle tab with nothing to
   * lose): only API responses refresh the shared time, or one idle tab would keep another tab's
   * expired session looking alive.
   */
  restart: (now?: number) => void;
  /** The latest access of any tab of the site: the cookie's time when it is newer. */
  current: () => number;
}

export const useSessionStore = create<SessionStore>()((set, get) => ({
  // A reload goes on from the shared time; a first visit starts now.
  lastAccess: readLastAccessCookie() ?? Date.now(),
  touch: (now = Date.now()) => {
    writeLastAccessCookie(now);
    set({ lastAccess: now });
  },
  restart: (now = Date.now()) => set({ lastAccess: now }),
  current: () => {
    const shared = readLastAccessCookie();
    const own = get().lastAccess;
    if (shared !== null && shared > own) {
      set({ lastAccess: shared });
      return shared;
    }
    return own;
  },
}));
