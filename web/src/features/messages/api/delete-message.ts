import { apiClient } from '@/lib/api-client';

/** POST /api/admin/manageMessage/{id}: deletes the message (204). */
export async function deleteMessage(id: string): Promise<void> {
  await apiClient.post<void>(`/api/admin/manageMessage/${encodeURIComponent(id)}`);
}
