import { apiClient } from '@/lib/api-client';
import type { Device } from '@/types/api';

/** The logged-in person's signed-in sessions ("devices"), newest activity first. */
export function listSessions(): Promise<Device[]> {
  return apiClient.get<Device[]>('/api/user/sessions');
}

/** Ends one session (204); ending the current one is a logout. */
export function endSession(id: string): Promise<void> {
  return apiClient.delete<void>(`/api/user/sessions/${encodeURIComponent(id)}`);
}

/** Ends every session of the person but this one (204). */
export function endOtherSessions(): Promise<void> {
  return apiClient.delete<void>('/api/user/sessions');
}
