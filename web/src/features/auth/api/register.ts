import { apiClient } from '@/lib/api-client';
import type { ServerMessage } from '@/types/api';

export interface RegisterRequest {
  token: string;
  email: string;
  password: string;
  password_confirmation: string;
  tos_agree: boolean;
}

/** Creates the invited account's password ("Thank you for creating your account."). */
export function register(body: RegisterRequest): Promise<ServerMessage> {
  return apiClient.post<ServerMessage>('/api/register', body);
}
