import type { ListKind } from '../types';

export const EMAIL_SUBJECTS: Record<ListKind, string> = {
  quotes: 'Your health insurance quote',
  enrollees: 'Your health insurance enrollment',
};

/** Percent-encodes a mailto part (RFC 6068): line breaks as %0D%0A, `@` kept in the address. */
const encode = (text: string) => encodeURIComponent(text.replace(/\r?\n/g, '\r\n'));

/**
 * Send Email (spec part 2, Submissions list): a mail draft to the subscriber with a subject line and
 * a greeting, signed with the agent's full name. Every part is URL-encoded.
 */
export function mailtoHref(
  row: { sub_email: string; first_name: string },
  agentFullName: string,
  kind: ListKind,
): string {
  const to = encode(row.sub_email.trim()).replace(/%40/g, '@');
  const first = row.first_name.trim();
  const body = `Dear ${first},\n\n\n\nSincerely,\n${agentFullName.trim()}`;
  return `mailto:${to}?subject=${encode(EMAIL_SUBJECTS[kind])}&body=${encode(body)}`;
}
