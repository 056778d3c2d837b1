import { apiClient } from '@/lib/api-client';
import type { Schema, ServerMessage } from '@/types/api';

export type RegisterRequest = Schema<'RegisterRequest'>;

/** Creates the invited account's password ("Thank you for creating your account."). */
export function register(body: RegisterRequest): Promise<ServerMessage> {
  return apiClient.post<ServerMessage>('/api/register', body);
}
