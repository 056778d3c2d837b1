import { apiClient } from '@/lib/api-client';
import type { ActiveApplicationResponse, Application } from '@/types/api';

/** Restart Quote: the server drops the session's application. */
export async function resetActiveApplication(): Promise<Application | null> {
  const res = await apiClient.get<ActiveApplicationResponse>('/api/application/active', { query: { reset: true } });
  return res?.application ?? null;
}
