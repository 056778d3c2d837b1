import { apiClient } from '@/lib/api-client';
import type { StepSaved } from '@/types/api';

/**
 * Apply Now on Review Selections (spec part 1, 4.4: "saves (no body) and then goes to subInfo"):
 * POST /api/application/step/{step}/continue, which reaches the next step without answers.
 */
export function saveReview(step: string): Promise<StepSaved> {
  return apiClient.post<StepSaved>(`/api/application/step/${encodeURIComponent(step)}/continue`, {});
}
