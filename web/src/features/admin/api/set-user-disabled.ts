import { apiClient } from '@/lib/api-client';
import type { AccountState } from '@/types/api';

/**
 * Disables a user (signed out everywhere at once, no login until enabled again) or enables them
 * (admins only; an admin cannot disable their own account: 400).
 */
export function setUserDisabled(userId: string, disabled: boolean): Promise<AccountState> {
  return apiClient.put<AccountState>(`/api/admin/users/${encodeURIComponent(userId)}/disabled`, { disabled });
}
