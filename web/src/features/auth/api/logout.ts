import { apiClient } from '@/lib/api-client';

/** Ends the agent's session (204). */
export function logout(): Promise<void> {
  return apiClient.post<void>('/api/logout');
}
