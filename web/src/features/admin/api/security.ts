import { apiClient } from '@/lib/api-client';
import type { AuditPage, SecuritySettings } from '@/types/api';

export function getSecuritySettings(): Promise<SecuritySettings> {
  return apiClient.get<SecuritySettings>('/api/admin/security-settings');
}

/** Requiring two-step verification of agents signs out those who have not used it in their session. */
export function putSecuritySettings(settings: SecuritySettings): Promise<SecuritySettings> {
  return apiClient.put<SecuritySettings>('/api/admin/security-settings', settings);
}

export interface AuditFilter {
  action?: string;
  person?: string;
  application?: string;
  from?: string;
  until?: string;
  before?: number;
}

/** A page of the audit log, newest first, filtered. */
export function getAuditLog(filter: AuditFilter): Promise<AuditPage> {
  const query: Record<string, string | number | undefined> = {};
  for (const [k, v] of Object.entries(filter) as [keyof AuditFilter, string | number | undefined][]) {
    if (v !== undefined && v !== '') query[k] = v;
  }
  return apiClient.get<AuditPage>('/api/admin/audit', { query });
}
