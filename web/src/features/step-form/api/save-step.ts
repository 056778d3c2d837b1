import { apiClient } from '@/lib/api-client';
import type { StepSaved } from '@/types/api';

/**
 * PUT /api/application/step/{step}: saves the answers. 200 says where to go or which dialog to ask;
 * a 422 rejects with an ApiError whose `fieldErrors` is the errors map keyed by the spec's field keys.
 */
export function saveStep(step: string, answers: unknown): Promise<StepSaved> {
  return apiClient.put<StepSaved>(`/api/application/step/${encodeURIComponent(step)}`, answers ?? {});
}
