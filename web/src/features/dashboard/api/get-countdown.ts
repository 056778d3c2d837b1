import { apiClient } from '@/lib/api-client';
import type { Countdown } from '../types';

export type CountdownKind = 'Individual' | 'Medicare';

/** GET /api/dashboard/countdownIndividual or /countdownMedicare. */
export function getCountdown(kind: CountdownKind): Promise<Countdown> {
  return apiClient.get<Countdown>(`/api/dashboard/countdown${kind}`);
}
