import { apiClient } from '@/lib/api-client';
import type { ServerMessage } from '@/types/api';

export interface ResetPasswordRequest {
  /** Empty when the link named no address: the token finds the account. */
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}

/** Sets a new password with the e-mailed link's token ("Your password has been reset."). */
export function resetPassword(body: ResetPasswordRequest): Promise<ServerMessage> {
  return apiClient.post<ServerMessage>('/api/reset-password', body);
}
