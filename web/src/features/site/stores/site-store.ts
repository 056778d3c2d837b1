import { create } from 'zustand';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Branding, Site } from '@/types/api';
import { getAgentBranding } from '../api/get-agent-branding';
import { getSite } from '../api/get-site';

interface SiteStore {
  site: Site | null;
  /** "Failed to fetch agent branding" or "Something went wrong!" (spec part 1, 8). */
  error: string | null;
  load: () => Promise<Site | null>;
  /** Swap in another agent's branding (login, impersonation). */
  loadBranding: (subdomain: string) => Promise<Branding | null>;
}

export const useSiteStore = create<SiteStore>()((set, get) => ({
  site: null,
  error: null,
  load: async () => {
    try {
      const site = await getSite();
      set({ site, error: null });
      return site;
    } catch (e) {
      set({ error: e instanceof ApiError ? 'Failed to fetch agent branding' : GENERIC_ERROR });
      return null;
    }
  },
  loadBranding: async (subdomain) => {
    try {
      const agent = await getAgentBranding(subdomain);
      const site = get().site;
      if (site) set({ site: { ...site, agent } });
      return agent;
    } catch {
      set({ error: 'Failed to fetch agent branding' });
      return null;
    }
  },
}));
