import { apiClient } from '@/lib/api-client';
import type { PlanType, StoredSelection } from '../types';

/** GET /api/plans/{type}: the application's stored selection (and add_hsa). */
export function getStoredSelection(planType: PlanType, signal?: AbortSignal): Promise<StoredSelection> {
  return apiClient.get<StoredSelection>(`/api/plans/${planType}`, { signal });
}
