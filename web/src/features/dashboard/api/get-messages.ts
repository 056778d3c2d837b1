import { apiClient } from '@/lib/api-client';
import type { AgentMessage, MessagesResponse } from '../types';

/** GET /api/dashboard/getMessages: the agent's current messages. */
export async function getMessages(): Promise<AgentMessage[]> {
  return (await apiClient.get<MessagesResponse>('/api/dashboard/getMessages')).messages;
}
