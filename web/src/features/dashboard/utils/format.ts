/** The agents' time zone: their business is in Michigan (dates on screen and in the exports). */
export const AGENT_TIME_ZONE = 'America/Detroit';
export const AGENT_TIME_LABEL = 'Michigan time';

const DATE_IN_MICHIGAN = new Intl.DateTimeFormat('en-US', { timeZone: AGENT_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * YYYY-MM-DD or an RFC 3339 time (as the server sends `created_at`, `submission_time`) as
 * mm/dd/yyyy (spec part 2: "Dates display as month/day/year"): a date as sent (an effective date
 * has no zone); an instant as its day in Michigan (America/Detroit), whatever the browser's zone.
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  const at = new Date(value.length > 10 ? value : `${value}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return value;
  // A bare date is a calendar day, not an instant: read at noon UTC, it is the same day in Michigan.
  return DATE_IN_MICHIGAN.format(at);
}

/** A row's display name. */
/** What a row without a name yet (a quote stopped before About You) is called. */
export const NO_NAME_YET = 'No name yet';

export function rowName(row: { full_name: string; first_name: string; last_name: string }): string {
  return row.full_name.trim() || `${row.first_name} ${row.last_name}`.trim() || NO_NAME_YET;
}
