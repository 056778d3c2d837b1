import { apiClient } from '@/lib/api-client';
import type { PlanList, PlanType } from '../types';

/** GET /api/plans/{type}/allPlans: the quoted plans, narrowed by filter tokens. */
export function getPlans(planType: PlanType, tokens: readonly string[], signal?: AbortSignal): Promise<PlanList> {
  return apiClient.get<PlanList>(`/api/plans/${planType}/allPlans`, {
    query: { filters: tokens.length ? tokens.join(',') : undefined },
    signal,
  });
}
