import { apiClient } from '@/lib/api-client';
import type { OutboxMessage } from '@/types/api';

/** The newest e-mails, newest first (admins only; the demo's mail viewer). */
export function getOutbox(): Promise<OutboxMessage[]> {
  return apiClient.get<OutboxMessage[]>('/api/admin/outbox');
}
