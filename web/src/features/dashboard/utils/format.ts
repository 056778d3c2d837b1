/** YYYY-MM-DD or an RFC 3339 time as mm/dd/yyyy (the calendar date as sent; a time in local time). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  if (value.length > 10) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) {
      return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
    }
  }
  return `${m[2]}/${m[3]}/${m[1]}`;
}

/** A plan name's text (names may hold markup such as `<sup>&reg;</sup>`); DOMParser runs no script. */
export function plainText(html: string): string {
  return (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A row's display name. */
export function rowName(row: { full_name: string; first_name: string; last_name: string }): string {
  return row.full_name || `${row.first_name} ${row.last_name}`.trim();
}
