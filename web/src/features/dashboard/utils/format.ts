/** The agents' time zone: their business is in Michigan (times on screen and in the exports). */
export const AGENT_TIME_ZONE = 'America/Detroit';
export const AGENT_TIME_LABEL = 'Michigan time';

const DATE_IN_MICHIGAN = new Intl.DateTimeFormat('en-US', { timeZone: AGENT_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const TIME_IN_MICHIGAN = new Intl.DateTimeFormat('en-US', { timeZone: AGENT_TIME_ZONE, hour: 'numeric', minute: '2-digit' });

const isInstant = (value: string) => value.length > 10 && !Number.isNaN(new Date(value).getTime());

/**
 * YYYY-MM-DD or an RFC 3339 time as mm/dd/yyyy: a date as sent (an effective date has no zone); an
 * instant as its date in Michigan (America/Detroit).
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  if (isInstant(value)) return DATE_IN_MICHIGAN.format(new Date(value));
  return `${m[2]}/${m[3]}/${m[1]}`;
}

/** An RFC 3339 instant as Michigan's date and time: "11/14/2024 11:15 PM". */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  if (!isInstant(value)) return formatDate(value);
  const at = new Date(value);
  return `${DATE_IN_MICHIGAN.format(at)} ${TIME_IN_MICHIGAN.format(at)}`;
}

/** A plan name's text (names may hold markup such as `<sup>&reg;</sup>`); DOMParser runs no script. */
export function plainText(html: string): string {
  return (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A row's display name. */
export function rowName(row: { full_name: string; first_name: string; last_name: string }): string {
  return row.full_name || `${row.first_name} ${row.last_name}`.trim();
}
