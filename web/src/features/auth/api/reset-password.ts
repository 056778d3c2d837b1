import { apiClient } from '@/lib/api-client';
import type { Schema, ServerMessage } from '@/types/api';

export type ResetPasswordRequest = Schema<'ResetPasswordRequest'>;

/** Sets a new password with the e-mailed link's token ("Your password has been reset."). */
export function resetPassword(body: ResetPasswordRequest): Promise<ServerMessage> {
  return apiClient.post<ServerMessage>('/api/reset-password', body);
}
