import { apiClient } from '@/lib/api-client';
import type { Start } from '@/types/api';

/**
 * A page load's first answer: the auth state (the session started when there is none), the active
 * application and the wizard's flow in one call, which index.html preloads while the script
 * downloads. Quiet: a refusal (a session replaced a moment ago) falls back to the calls one by one.
 */
export function getStart(): Promise<Start> {
  return apiClient.get<Start>('/api/start', { quiet: true });
}
