import { apiClient } from '@/lib/api-client';
import type { LastStepResponse } from '@/types/api';

/** The last step the session's application reached, and its route. */
export function getLastStep(applicationId: string): Promise<LastStepResponse> {
  return apiClient.get<LastStepResponse>(`/api/application/${encodeURIComponent(applicationId)}/step`);
}
