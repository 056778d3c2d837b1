import { create } from 'zustand';
import type { MessageDescriptor } from '@lingui/core';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Branding, Site } from '@/types/api';
import { getAgentBranding } from '../api/get-agent-branding';
import { getSite } from '../api/get-site';

/** The site or an agent's branding could not be read (spec part 1, 8). */
export const BRANDING_FAILED = /*i18n*/ { id: 'Failed to fetch agent branding' };

interface SiteStore {
  site: Site | null;
  /** BRANDING_FAILED or GENERIC_ERROR (spec part 1, 8): a catalog message, shown with `i18n._`. */
  error: MessageDescriptor | null;
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
      set({ error: e instanceof ApiError ? BRANDING_FAILED : GENERIC_ERROR });
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
      set({ error: BRANDING_FAILED });
      return null;
    }
  },
}));
