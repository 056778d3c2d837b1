// Times as the agency reads them: on Michigan's clock, the zone named.

const MICHIGAN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Detroit',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
/** Some engines put a narrow no-break space before AM/PM: plain spaces read and match alike. */
export const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** An instant on Michigan's clock, the zone named: "Nov 20, 2024, 5:01 AM EST". */
export function michiganTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : plainSpaces(MICHIGAN.format(d));
}
