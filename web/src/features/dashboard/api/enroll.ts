import { apiClient } from '@/lib/api-client';
import type { EnrollResponse } from '../types';

/** POST /api/dashboard/enroll/{id}: makes the listed application the session's; answers the route to resume at. */
export function enroll(applicationId: string): Promise<EnrollResponse> {
  return apiClient.post<EnrollResponse>(`/api/dashboard/enroll/${encodeURIComponent(applicationId)}`);
}
