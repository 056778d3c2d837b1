import { apiClient } from '@/lib/api-client';
import type { PlanType, SelectionBody, SelectionSaved } from '../types';

/** PUT /api/plans/{type}: choose a plan (or none); answers where to go next. */
export function saveSelection(planType: PlanType, body: SelectionBody): Promise<SelectionSaved> {
  return apiClient.put<SelectionSaved>(`/api/plans/${planType}`, body);
}
