import { create } from 'zustand';
import { getShell } from '../api/get-shell';
import type { DashboardShell } from '../types';

interface ShellStore {
  shell: DashboardShell | null;
  error: boolean;
  /**
   * GET /api/dashboard/shell (each time the dashboard opens: Continue Quote follows the session).
   * What an earlier login loaded is dropped first.
   */
  load: () => Promise<void>;
}

/** The left navigation's data; the lists read the agent's full name (Send Email) from it. */
export const useShellStore = create<ShellStore>()((set) => ({
  shell: null,
  error: false,
  load: async () => {
    set({ shell: null, error: false });
    try {
      set({ shell: await getShell(), error: false });
    } catch {
      set({ error: true });
    }
  },
}));
