import { apiClient } from '@/lib/api-client';

/** The server lets go of the session's application (a dialog's or a link's `action: home`). */
export async function resetApplication(): Promise<void> {
  await apiClient.post<unknown>('/api/application/active/reset');
}
