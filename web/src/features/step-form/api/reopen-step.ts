import { apiClient } from '@/lib/api-client';
import type { StepReopened } from '@/types/api';

/**
 * POST /api/application/step/{step}/reopen: opens a skipped step again by the flow's `reopen` rule
 * ("I want to select a dental plan instead" after "Continue without Dental Coverage"); a step that
 * is open already is answered as it is.
 */
export function reopenStep(step: string): Promise<StepReopened> {
  return apiClient.post<StepReopened>(`/api/application/step/${encodeURIComponent(step)}/reopen`, {});
}
