import { apiClient } from '@/lib/api-client';
import type { AppInfo } from '../types';

/** GET /api/dashboard/getAppInfo/{id}: the More Info modal. */
export function getAppInfo(applicationId: string): Promise<AppInfo> {
  return apiClient.get<AppInfo>(`/api/dashboard/getAppInfo/${encodeURIComponent(applicationId)}`);
}
