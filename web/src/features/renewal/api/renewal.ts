import { apiClient } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

type Schema<K extends keyof components['schemas']> = components['schemas'][K];
export type RenewalOffer = Schema<'RenewalOffer'>;
export type PlanRenewalView = Schema<'PlanRenewalView'>;
export type PlanTerms = Schema<'PlanTerms'>;
export type Rechecked = Schema<'Rechecked'>;

/** GET /api/renewal: the customer's renewal (the application a renewal link started). */
export function getOffer(): Promise<RenewalOffer> {
  return apiClient.get<RenewalOffer>('/api/renewal');
}

/** POST /api/renewal/choose: the customer's plans for next year; where the wizard goes on. */
export function choosePlans(choice: { medical: number | null; dental: number | null; vision: number | null }): Promise<Rechecked> {
  return apiClient.post<Rechecked>('/api/renewal/choose', choice);
}
