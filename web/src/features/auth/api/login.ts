import { apiClient } from '@/lib/api-client';
import type { LoggedIn } from '@/types/api';

/** Logs in: a new session replaces the caller's (new cookie, new CSRF token). 422 errors use `login_email`/`login_password`; 429 when throttled. */
export function login(email: string, password: string): Promise<LoggedIn> {
  return apiClient.post<LoggedIn>('/api/login', { email, password });
}
