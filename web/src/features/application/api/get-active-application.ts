import { apiClient } from '@/lib/api-client';
import type { ActiveApplicationResponse, Application } from '@/types/api';

/** The application bound to this session, or null. */
export async function getActiveApplication(): Promise<Application | null> {
  const res = await apiClient.get<ActiveApplicationResponse>('/api/application/active');
  return res?.application ?? null;
}
