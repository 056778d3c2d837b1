import { apiClient } from '@/lib/api-client';
import type { CountyOption } from '@/types/api';

/** The counties of a 5-digit ZIP for the session's application (empty for a ZIP outside the catalog). */
export function getCountyList(applicationId: string, zip: string): Promise<CountyOption[]> {
  return apiClient.get<CountyOption[]>(
    `/api/application/${encodeURIComponent(applicationId)}/countyList/${encodeURIComponent(zip)}`,
  );
}
