import { apiClient } from '@/lib/api-client';
import type { StepId } from '@/lib/steps';
import type { ValidStepResponse } from '@/types/api';

/** Whether the server lets the session's application open this step (403 when the id isn't the session's). */
export async function getValidStep(applicationId: string, step: StepId): Promise<boolean> {
  const res = await apiClient.get<ValidStepResponse>(
    `/api/application/${encodeURIComponent(applicationId)}/step/${encodeURIComponent(step)}/validStep`,
  );
  return res?.valid === true;
}
