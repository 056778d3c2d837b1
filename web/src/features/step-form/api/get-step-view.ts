import { apiClient } from '@/lib/api-client';
import type { StepView } from '@/types/api';

/** GET /api/application/step/{step}: the step's schema, UI schema, data, extras and navigation. */
export function getStepView(step: string, signal?: AbortSignal): Promise<StepView> {
  return apiClient.get<StepView>(`/api/application/step/${encodeURIComponent(step)}`, { signal });
}
