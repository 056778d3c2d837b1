import { apiClient } from '@/lib/api-client';
import type { ServerMessage } from '@/types/api';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function forgotPassword(email: string): Promise<ServerMessage> {
  return apiClient.post<ServerMessage>('/api/forgot-password', { email });
}
