import { apiClient } from '@/lib/api-client';
import type { DashboardListPage, ListKind } from '../types';

export const RECENT_ROWS = 5;

/** The home page's recent quotes (newest first) or submissions (the list's default sort): 5 rows. */
export function getRecent(kind: ListKind): Promise<DashboardListPage> {
  const query =
    kind === 'quotes'
      ? `resultsPerPage=${RECENT_ROWS}&sortCol=created_at&sortOrderAsc=false`
      : `resultsPerPage=${RECENT_ROWS}`;
  return apiClient.get<DashboardListPage>(`/api/dashboard/${kind}?${query}`);
}
