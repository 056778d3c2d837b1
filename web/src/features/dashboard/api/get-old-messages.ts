import { apiClient } from '@/lib/api-client';
import type { AgentMessage, MessagesResponse } from '../types';

/** GET /api/dashboard/getOldMessages: the past 30 days' messages that are no longer current. */
export async function getOldMessages(): Promise<AgentMessage[]> {
  return (await apiClient.get<MessagesResponse>('/api/dashboard/getOldMessages')).messages;
}
