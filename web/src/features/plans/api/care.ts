import { apiClient } from '@/lib/api-client';
import type { CareInput, CareNeeds, CareSaved } from '../types';

/** GET /api/care: each member's expected use of care (medium until chosen), the household's doctors and drugs. */
export function getCare(signal?: AbortSignal): Promise<CareNeeds> {
  return apiClient.get<CareNeeds>('/api/care', { signal });
}

/** PUT /api/care: stores the whole list (uses, doctors' NPIs, drugs' RxNorm ids) with the application. */
export function saveCare(input: CareInput): Promise<CareSaved> {
  return apiClient.put<CareSaved>('/api/care', input);
}
