import { apiClient } from '@/lib/api-client';
import type { SaveForLaterAddress, SavedForLater } from '../types';

/** Where the link would go: the e-mail address the application holds. */
export function saveForLaterAddress(signal?: AbortSignal): Promise<SaveForLaterAddress> {
  return apiClient.get<SaveForLaterAddress>('/api/application/saveForLater', { signal });
}

/** E-mails the consumer, at the application's own address, a single-use link that opens it in any browser. */
export function saveForLater(): Promise<SavedForLater> {
  return apiClient.post<SavedForLater>('/api/application/saveForLater', {});
}
