// How the read-only summary sections (`ui:sections`, see sections.ts) show a value, by the `format`
// the form file names. Every format gives the lines to show; no lines means "no value" (the row or
// cell is left empty, a details row is left out).
//
//   text     (default) texts and numbers as they are, ISO dates mm/dd/yyyy, true/false Yes/No
//   date     ISO dates mm/dd/yyyy
//   money    US dollars: 612.5 -> $612.50
//   phone    10 digits -> (313) 555-0100
//   lines    a list of texts, one a line (a mailing address)
//   address  { street, street2, city, state, zip } -> "1 Main St" / "Ann Arbor, MI 48104"
//   plain    text with its markup removed (plan names may hold <sup>&reg;</sup>)

import { isIsoDate, isoToUs } from './dates';
import { displayMasked } from './masks';
import { isRecord } from './paths';
import { formatPremium } from '@/lib/money';
import { plainText } from '@/lib/plain-text';

export const VALUE_FORMATS = ['text', 'date', 'money', 'phone', 'lines', 'address', 'plain'] as const;
export type ValueFormat = (typeof VALUE_FORMATS)[number];

function text(value: unknown): string[] {
  if (typeof value === 'string') {
    const t = value.trim();
    if (t === '') return [];
    return [isIsoDate(t) ? isoToUs(t) : t];
  }
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  if (typeof value === 'boolean') return [value ? 'Yes' : 'No'];
  return [];
}

function money(value: unknown): string[] {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? [formatPremium(n)] : [];
}

function phone(value: unknown): string[] {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  const digits = String(value).replace(/\D/g, '');
  return digits.length === 10 ? [displayMasked('phone', digits)] : text(value);
}

function address(value: unknown): string[] {
  if (!isRecord(value)) return [];
  const part = (k: string) => text(value[k])[0] ?? '';
  const city = [part('city'), part('state')].filter(Boolean).join(', ');
  const last = [city, part('zip')].filter(Boolean).join(' ');
  return [part('street'), part('street2'), last].filter((l) => l !== '');
}

/** The lines a value shows in the given format (unknown formats: `text`). */
export function formatValue(value: unknown, format?: unknown): string[] {
  switch (format) {
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? [isoToUs(value)] : text(value);
    case 'money':
      return money(value);
    case 'phone':
      return phone(value);
    case 'lines':
      return (Array.isArray(value) ? value : [value]).flatMap(text);
    case 'address':
      return address(value);
    case 'plain':
      return typeof value === 'string' ? text(plainText(value)) : text(value);
    default:
      return text(value);
  }
}
