import { apiClient } from '@/lib/api-client';
import type { PlaygroundRequest, PlaygroundResult } from '@/types/api';

/** A step's view in the given context, and the validation of the sample answers when there are some. */
export function tryPlaygroundStep(body: PlaygroundRequest): Promise<PlaygroundResult> {
  return apiClient.post<PlaygroundResult>('/api/playground', body);
}
