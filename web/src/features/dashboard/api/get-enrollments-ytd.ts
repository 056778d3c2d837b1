import { apiClient } from '@/lib/api-client';
import type { EnrollmentsYtd } from '../types';

/** GET /api/dashboard/enrollmentsYtd: submissions per month of this year. */
export function getEnrollmentsYtd(): Promise<EnrollmentsYtd> {
  return apiClient.get<EnrollmentsYtd>('/api/dashboard/enrollmentsYtd');
}
