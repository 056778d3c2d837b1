// Date fields are typed and shown mm/dd/yyyy in every language (spec part 1, 5; part 2, 9) and
// travel as ISO `YYYY-MM-DD`, the only form the server takes (engine/src/dates.rs; schema `format:
// date`). Dates only shown (summaries, texts) follow the page's language (`formatDate`, '@/lib/dates').

import { isoToUs } from '@/lib/dates';

export { isoToUs };

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const US = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}


/** `03/02/2024` -> `2024-03-02`, or null when the text is not a whole, real date. */
export function usToIso(text: string): string | null {
  const m = US.exec(text.trim());
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isRealDate(year, month, day) ? `${m[3]}-${m[1]}-${m[2]}` : null;
}

/** What the date field shows while typing: digits with the slashes put in (`0302` -> `03/02`). */
export function formatUsDateInput(typed: string): string {
  const d = typed.replace(/\D/g, '').slice(0, 8);
  if (d.length <= 2) return d;
  if (d.length <= 4) return `${d.slice(0, 2)}/${d.slice(2)}`;
  return `${d.slice(0, 2)}/${d.slice(2, 4)}/${d.slice(4)}`;
}

/**
 * The value to store for the typed text: the ISO date when it is a whole, real date; undefined
 * when empty; otherwise the text itself, so the server answers "not a valid date" for it.
 */
export function parseUsDateInput(typed: string): string | undefined {
  const shown = formatUsDateInput(typed);
  if (shown === '') return undefined;
  return usToIso(shown) ?? shown;
}

/** The text a stored value shows: ISO dates as mm/dd/yyyy, partial input as typed. */
export function displayDate(value: unknown): string {
  return typeof value === 'string' ? isoToUs(value) : '';
}

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = ISO.exec(value);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Whole years from `birth` to `on` (both ISO); someone born on Feb 29 ages on Mar 1 (as dates.rs). */
export function ageAt(birth: string, on: string): number | null {
  if (!isIsoDate(birth) || !isIsoDate(on)) return null;
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [oy, om, od] = on.split('-').map(Number) as [number, number, number];
  let age = oy - by;
  if (om < bm || (om === bm && od < bd)) age -= 1;
  return age;
}

/** Today in the browser's calendar, ISO. */
export function todayIso(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}
