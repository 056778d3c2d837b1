import { apiClient } from '@/lib/api-client';
import type { ServerMessage } from '@/types/api';

export interface ChangePasswordRequest {
  current_password: string;
  new_password: string;
  new_password_confirmation: string;
}

/** Changes the logged-in user's password ("Your password has been changed."). */
export function changePassword(body: ChangePasswordRequest): Promise<ServerMessage> {
  return apiClient.put<ServerMessage>('/api/user/password', body);
}
