import { apiClient } from '@/lib/api-client';
import type { Site } from '@/types/api';

/** Product names and the agent (if any) behind the host's subdomain. */
export function getSite(): Promise<Site> {
  return apiClient.get<Site>('/api/site');
}
