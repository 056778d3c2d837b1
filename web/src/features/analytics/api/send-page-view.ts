import { request } from '@/lib/api-client';

/** POST /api/events/pageView: the route's template only; failures are ignored by the caller. */
export function sendPageView(route: string): Promise<void> {
  return request<void>('/api/events/pageView', { method: 'POST', body: { route }, quiet: true });
}
