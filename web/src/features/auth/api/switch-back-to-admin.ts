import { apiClient } from '@/lib/api-client';
import type { LoggedIn } from '@/types/api';

/** Ends an admin's acting as an agent: a new session for the admin (a POST under the CSRF guard). */
export function switchBackToAdmin(): Promise<LoggedIn> {
  return apiClient.post<LoggedIn>('/api/unFabricateAgent');
}
