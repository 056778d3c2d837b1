import { apiClient } from '@/lib/api-client';
import type { PlanCoverageList } from '../types';

/** GET /api/plans/1/coverage: for each medical plan, which of the household's doctors and drugs it covers. */
export function getPlanCoverage(signal?: AbortSignal): Promise<PlanCoverageList> {
  return apiClient.get<PlanCoverageList>('/api/plans/1/coverage', { signal });
}
