import { apiClient } from '@/lib/api-client';
import type { DrugHit } from '../types';

/** GET /api/coverage/drugs?q=: drugs by name, at most 10. */
export function searchDrugs(q: string, signal?: AbortSignal): Promise<DrugHit[]> {
  return apiClient.get<DrugHit[]>('/api/coverage/drugs', { query: { q }, signal });
}
