import { apiClient } from '@/lib/api-client';

/** PUT /api/dashboard/dismissMessage/{id} (204). */
export async function dismissMessage(id: string): Promise<void> {
  await apiClient.put<void>(`/api/dashboard/dismissMessage/${encodeURIComponent(id)}`);
}
