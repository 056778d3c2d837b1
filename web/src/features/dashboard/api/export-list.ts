import { requestBlob } from '@/lib/api-client';
import type { ListKind } from '../types';
import { buildQuery, type ListQuery } from '../utils/query';

export const EXPORT_FILE_NAMES: Record<ListKind, string> = {
  quotes: 'Exported_Quotes.xlsx',
  enrollees: 'Exported_Enrollees.xlsx',
};

/** GET /api/dashboard/quotesExport or /enrolleesExport (the list's filters and sort) as a blob. */
export function exportList(kind: ListKind, query: ListQuery): Promise<Blob> {
  return requestBlob(`/api/dashboard/${kind}Export?${buildQuery(query, false)}`);
}
