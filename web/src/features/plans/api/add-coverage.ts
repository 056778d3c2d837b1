import { apiClient } from '@/lib/api-client';
import type { StepReopened } from '@/types/api';

/**
 * Review's "Add dental coverage" / "Add vision coverage": opens the plan step the household went
 * without again (POST /api/application/step/{step}/reopen, by the flow's `reopen` rule) and answers
 * where it is and the application's new flags.
 */
export function addCoverage(step: string): Promise<StepReopened> {
  return apiClient.post<StepReopened>(`/api/application/step/${encodeURIComponent(step)}/reopen`, {});
}
