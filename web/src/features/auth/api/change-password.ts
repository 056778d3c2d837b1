import { apiClient } from '@/lib/api-client';
import type { Schema, ServerMessage } from '@/types/api';

export type ChangePasswordRequest = Schema<'ChangePasswordRequest'>;

/** Changes the logged-in user's password ("Your password has been changed."). */
export function changePassword(body: ChangePasswordRequest): Promise<ServerMessage> {
  return apiClient.put<ServerMessage>('/api/user/password', body);
}
