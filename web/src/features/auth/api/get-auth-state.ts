import { apiClient, ApiError, isSessionReplaced } from '@/lib/api-client';
import type { AuthState } from '@/types/api';

/**
 * Creates the session cookie when there is none; returns who is signed in and the CSRF token.
 * A cookie of a session replaced a moment ago is answered "replaced" (the client retries once by
 * itself); still "replaced" after that means this browser never got the newer cookie, so it asks
 * for a new session.
 */
export async function getAuthState(): Promise<AuthState> {
  try {
    return await apiClient.get<AuthState>('/api/get-auth-state', { quiet: true });
  } catch (e) {
    if (e instanceof ApiError && isSessionReplaced(e)) return apiClient.get<AuthState>('/api/get-auth-state', { query: { renew: true } });
    throw e;
  }
}
