import { apiClient } from '@/lib/api-client';
import type { ProviderHit } from '../types';

/** GET /api/coverage/providers?q=: doctors and facilities by name (2+ characters) or 10-digit NPI, at most 10. */
export function searchProviders(q: string, signal?: AbortSignal): Promise<ProviderHit[]> {
  return apiClient.get<ProviderHit[]>('/api/coverage/providers', { query: { q }, signal });
}
