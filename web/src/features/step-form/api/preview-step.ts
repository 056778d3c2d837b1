import { apiClient } from '@/lib/api-client';
import type { StepView } from '@/types/api';

/** POST /api/application/step/{step}/preview: the view recomputed for unsaved answers (nothing is saved). */
export function previewStep(step: string, answers: unknown): Promise<StepView> {
  return apiClient.post<StepView>(`/api/application/step/${encodeURIComponent(step)}/preview`, answers ?? {});
}
