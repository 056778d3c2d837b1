import { apiClient } from '@/lib/api-client';
import type { PlanInfo } from '../types';

/** GET /api/plans/planInfo: the chosen plans, skip flags and the monthly total. */
export function getPlanInfo(signal?: AbortSignal): Promise<PlanInfo> {
  return apiClient.get<PlanInfo>('/api/plans/planInfo', { signal });
}
