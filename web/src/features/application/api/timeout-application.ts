import { apiClient } from '@/lib/api-client';

/** Tells the server the idle session expired (204). */
export function timeoutApplication(): Promise<void> {
  return apiClient.get<void>('/api/application/timeout');
}
