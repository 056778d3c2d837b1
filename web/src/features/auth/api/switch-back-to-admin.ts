import { apiClient } from '@/lib/api-client';
import type { LoggedIn } from '@/types/api';

/** Ends an admin's acting as an agent: a new session for the admin. A GET that needs the CSRF header. */
export function switchBackToAdmin(): Promise<LoggedIn> {
  return apiClient.get<LoggedIn>('/api/unFabricateAgent', { csrf: true });
}
