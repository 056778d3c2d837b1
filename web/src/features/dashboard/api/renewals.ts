import { apiClient, requestBlob } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

type Schema<K extends keyof components['schemas']> = components['schemas'][K];
export type RenewalPage = Schema<'RenewalPage'>;
export type RenewalRow = Schema<'RenewalRow'>;
export type RenewalDetail = Schema<'RenewalDetail'>;
export type RenewalCounts = Schema<'RenewalCounts'>;
export type RenewalView = Schema<'RenewalView'>;
export type PlanRenewalView = Schema<'PlanRenewalView'>;
export type PlanTerms = Schema<'PlanTerms'>;

/** GET /api/dashboard/renewals: a page of the worklist under the view's query (`status`, `change`, `follow`, `q`, `page`). */
export function getRenewals(query: string): Promise<RenewalPage> {
  return apiClient.get<RenewalPage>(`/api/dashboard/renewals${query ? `?${query}` : ''}`);
}

/** GET /api/dashboard/renewals/{id}: one renewal side by side. */
export function getRenewal(id: string): Promise<RenewalDetail> {
  return apiClient.get<RenewalDetail>(`/api/dashboard/renewals/${encodeURIComponent(id)}`);
}

/** POST: mails the customer their renewal options in `language`. */
export function sendRenewal(id: string, language: string): Promise<{ expires_at: string }> {
  return apiClient.post(`/api/dashboard/renewals/${encodeURIComponent(id)}/send`, { language });
}

/** GET /api/dashboard/renewalCounts: the home card (null: no renewal season). */
export function getRenewalCounts(): Promise<RenewalCounts | null> {
  return apiClient.get<RenewalCounts | null>('/api/dashboard/renewalCounts');
}

/** GET /api/dashboard/renewalsExport under the view's filters, as a blob. */
export function exportRenewals(query: string): Promise<Blob> {
  return requestBlob(`/api/dashboard/renewalsExport${query ? `?${query}` : ''}`);
}

/** The statuses in the worklist's order, riskiest first. */
export const STATUSES = ['carrier_change', 'no_successor', 'plan_change', 'member_aging_off', 'premium_change', 'same_plan'] as const;

/**
 * How a status reads; `notable` is the rules' percentage of a notable premium change (the page's
 * `notable_change_percent`), unknown before the first page loads.
 */
export function statusLabel(status: string, notable: number | undefined): string {
  switch (status) {
    case 'carrier_change':
      return 'Carrier change';
    case 'no_successor':
      return 'No successor plan';
    case 'plan_change':
      return 'Plan change';
    case 'member_aging_off':
      return 'Member ageing off';
    case 'premium_change':
      return notable === undefined ? 'Premium change' : `Premium change of ${notable}% or more`;
    case 'same_plan':
      return 'Same plan';
    default:
      return status;
  }
}

export const FOLLOW_LABELS: Record<string, string> = {
  to_do: 'To do',
  sent: 'Sent',
  opened: 'Opened',
  reenrolled: 'Re-enrolled',
};

/** Dollars as the lists show them: $1,234.56. */
export function dollars(n: number | null | undefined): string {
  if (typeof n !== 'number') return '—';
  return n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/** A change in percent with its sign: +8.8%. */
export function percent(n: number): string {
  return `${n > 0 ? '+' : ''}${n.toFixed(1)}%`;
}
