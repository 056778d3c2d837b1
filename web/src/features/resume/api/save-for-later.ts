import { apiClient } from '@/lib/api-client';
import type { SavedForLater } from '../types';

/** E-mails the consumer a single-use link that opens the session's application in any browser. */
export function saveForLater(email: string): Promise<SavedForLater> {
  return apiClient.post<SavedForLater>('/api/application/saveForLater', { email });
}
