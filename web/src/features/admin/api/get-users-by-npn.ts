import { apiClient } from '@/lib/api-client';
import type { AgentUser } from '@/types/api';

/** The users of the agent with this NPN (admins only); rejects with a 404 ApiError ("Agent not found"). */
export function getUsersByNpn(npn: string): Promise<AgentUser[]> {
  return apiClient.get<AgentUser[]>(`/api/admin/getUsersByNPN/${encodeURIComponent(npn)}`);
}
