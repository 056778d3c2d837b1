import { apiClient } from '@/lib/api-client';
import type { AuditPage, SecuritySettings } from '@/types/api';
import type { operations } from '@/types/openapi.gen';

export function getSecuritySettings(): Promise<SecuritySettings> {
  return apiClient.get<SecuritySettings>('/api/admin/security-settings');
}

/** Requiring two-step verification of agents signs out those who have not used it in their session. */
export function putSecuritySettings(settings: SecuritySettings): Promise<SecuritySettings> {
  return apiClient.put<SecuritySettings>('/api/admin/security-settings', settings);
}

/** The audit log's filters (its query parameters). */
export type AuditFilter = NonNullable<operations['audit_log']['parameters']['query']>;

/** A page of the audit log, newest first, filtered. */
export function getAuditLog(filter: AuditFilter): Promise<AuditPage> {
  const query: Record<string, string | number | undefined> = {};
  for (const [k, v] of Object.entries(filter) as [keyof AuditFilter, string | number | undefined][]) {
    if (v !== undefined && v !== '') query[k] = v;
  }
  return apiClient.get<AuditPage>('/api/admin/audit', { query });
}
