import { apiClient } from '@/lib/api-client';
import type { DashboardShell } from '../types';

/** GET /api/dashboard/shell: the left navigation's data. */
export function getShell(): Promise<DashboardShell> {
  return apiClient.get<DashboardShell>('/api/dashboard/shell');
}
