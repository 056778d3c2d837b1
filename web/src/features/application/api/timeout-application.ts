import { request } from '@/lib/api-client';

/**
 * Tells the server the idle session expired (204): a POST under the CSRF guard, so no other page can
 * end a session. Quiet: a session the server already ended answers 419, which changes nothing here.
 */
export async function timeoutApplication(): Promise<void> {
  try {
    await request<void>('/api/application/timeout', { method: 'POST', quiet: true });
  } catch {
    // The session is over either way; the expired dialog says so.
  }
}
