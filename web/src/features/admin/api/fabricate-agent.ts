import { apiClient } from '@/lib/api-client';
import type { LoggedIn } from '@/types/api';

/** The admin acts as this agent user: a new session (a POST under the CSRF guard). */
export function fabricateAgent(userId: string): Promise<LoggedIn> {
  return apiClient.post<LoggedIn>(`/api/admin/fabricateAgent/${encodeURIComponent(userId)}`);
}
