import { create } from 'zustand';

interface SessionStore {
  /** Epoch ms of the last successful API response (spec part 1, 4.1). */
  lastAccess: number;
  touch: (now?: number) => void;
}

export const useSessionStore = create<SessionStore>()((set) => ({
  lastAccess: Date.now(),
  touch: (now = Date.now()) => set({ lastAccess: now }),
}));
