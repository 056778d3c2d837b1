import { apiClient } from '@/lib/api-client';
import type { DashboardListPage, ListKind } from '../types';
import { buildQuery, type ListQuery } from '../utils/query';

/** GET /api/dashboard/quotes or /api/dashboard/enrollees: one page of the list. */
export function getList(kind: ListKind, query: ListQuery, signal?: AbortSignal): Promise<DashboardListPage> {
  return apiClient.get<DashboardListPage>(`/api/dashboard/${kind}?${buildQuery(query)}`, { signal });
}
