import { apiClient } from '@/lib/api-client';
import type { LoggedIn } from '@/types/api';

/** The admin acts as this agent user: a new session. A GET that changes the session, so it sends the CSRF header. */
export function fabricateAgent(userId: string): Promise<LoggedIn> {
  return apiClient.get<LoggedIn>(`/api/admin/fabricateAgent/${encodeURIComponent(userId)}`, { csrf: true });
}
