import { apiClient } from '@/lib/api-client';
import type { AuthState } from '@/types/api';

/** Creates the session cookie when there is none; returns who is signed in and the CSRF token. */
export function getAuthState(): Promise<AuthState> {
  return apiClient.get<AuthState>('/api/get-auth-state');
}
