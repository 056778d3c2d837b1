import { apiClient } from '@/lib/api-client';
import type { Branding } from '@/types/api';

/** Branding of the agent with this subdomain; rejects with a 404 ApiError when there is none. */
export function getAgentBranding(subdomain: string): Promise<Branding> {
  return apiClient.get<Branding>(`/api/agent_branding/${encodeURIComponent(subdomain)}`);
}
