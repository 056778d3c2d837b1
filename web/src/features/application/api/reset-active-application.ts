import { apiClient } from '@/lib/api-client';
import type { ActiveApplicationResponse, Application } from '@/types/api';

/** Restart Quote: the server drops the session's application (a POST under the CSRF guard). */
export async function resetActiveApplication(): Promise<Application | null> {
  const res = await apiClient.post<ActiveApplicationResponse>('/api/application/active/reset');
  return res?.application ?? null;
}
