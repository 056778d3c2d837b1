import { apiClient } from '@/lib/api-client';
import type { AdminMessage } from '../types';

/** GET /api/admin/messageList: every message, newest first. */
export async function getMessageList(): Promise<AdminMessage[]> {
  return (await apiClient.get<{ messages: AdminMessage[] }>('/api/admin/messageList')).messages;
}
