import { apiClient } from '@/lib/api-client';
import type { MessageAgent } from '../types';

/**
 * GET /api/admin/agentList: every agent, by last name. The contract's shape is `{agents: […]}`; the
 * server also answers the bare list (the call predates Manage Messages), so both are read.
 */
export async function getAgentList(): Promise<MessageAgent[]> {
  const res = await apiClient.get<{ agents: MessageAgent[] } | MessageAgent[]>('/api/admin/agentList');
  return Array.isArray(res) ? res : (res?.agents ?? []);
}
