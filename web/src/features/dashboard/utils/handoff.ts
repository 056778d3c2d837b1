import type { Handoff } from '../types';
import { formatDate } from './format';

/** A hand-off's state as the badge in its row says it. */
export function handoffBadge(h: Handoff | null | undefined): string | null {
  if (!h) return null;
  switch (h.state) {
    case 'sent':
      return 'Sent to customer';
    case 'opened':
      return 'Opened by customer';
    case 'submitted':
      return 'Submitted by customer';
    case 'revoked':
      return 'Link withdrawn';
    case 'expired':
      return 'Link expired';
  }
}

/** The sentence the Send to Customer dialog starts with. */
export function handoffSentence(h: Handoff): string {
  const sent = formatDate(h.sent_at);
  switch (h.state) {
    case 'sent':
      return `Sent on ${sent}; the customer has not opened it yet. The link works until ${formatDate(h.expires_at)}.`;
    case 'opened':
      return `Sent on ${sent} and opened by the customer on ${formatDate(h.opened_at)}.`;
    case 'submitted':
      return `Sent on ${sent}; the customer signed and purchased.`;
    case 'revoked':
      return `The link sent on ${sent} was withdrawn.`;
    case 'expired':
      return `The link sent on ${sent} expired before the customer opened it.`;
  }
}
