import { apiClient } from '@/lib/api-client';
import type { CarrierShare } from '../types';

/** GET /api/dashboard/carrierShare: this year's medical submissions by carrier. */
export function getCarrierShare(): Promise<CarrierShare> {
  return apiClient.get<CarrierShare>('/api/dashboard/carrierShare');
}
