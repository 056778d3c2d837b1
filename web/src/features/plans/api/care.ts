import { apiClient } from '@/lib/api-client';
import type { CareNeeds, CareSaved } from '../types';

/** GET /api/care: each member's expected use of care (medium until chosen). */
export function getCare(signal?: AbortSignal): Promise<CareNeeds> {
  return apiClient.get<CareNeeds>('/api/care', { signal });
}

/** PUT /api/care: stores each member's expected use of care with the application. */
export function saveCare(body: CareNeeds): Promise<CareSaved> {
  return apiClient.put<CareSaved>('/api/care', body);
}
