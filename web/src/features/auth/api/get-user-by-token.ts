import { apiClient } from '@/lib/api-client';
import type { UserByToken } from '@/types/api';

/** Who an invitation is for; rejects with a 404 ApiError ("Sorry, the link you used is no longer valid."). */
export function getUserByToken(token: string): Promise<UserByToken> {
  return apiClient.get<UserByToken>(`/api/get-user/${encodeURIComponent(token)}`);
}
