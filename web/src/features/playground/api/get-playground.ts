import { apiClient } from '@/lib/api-client';
import type { PlaygroundSteps } from '@/types/api';

/** The steps to try and the serving rules' digest (404 when the playground is off). */
export function getPlayground(): Promise<PlaygroundSteps> {
  return apiClient.get<PlaygroundSteps>('/api/playground');
}
