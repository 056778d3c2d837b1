import { apiClient } from '@/lib/api-client';
import type { AdminMessage, SaveMessageBody } from '../types';

/** PUT /api/admin/manageMessage: creates (no id) or updates; 422 carries `errors` per field. */
export async function saveMessage(body: SaveMessageBody): Promise<AdminMessage> {
  return (await apiClient.put<{ message: AdminMessage }>('/api/admin/manageMessage', body)).message;
}
