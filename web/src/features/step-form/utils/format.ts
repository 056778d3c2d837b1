// How the read-only summary sections (`ui:sections`, see sections.ts) show a value, by the `format`
// the form file names. Every format gives the lines to show; no lines means "no value" (the row or
// cell is left empty, a details row is left out).
//
//   text     (default) texts and numbers as they are, ISO dates as the page's language writes them
//            (mm/dd/yyyy in English), true/false Yes/No
//   date     ISO dates as the page's language writes them
//   money    US dollars in the page's language: 612.5 -> $612.50 (English)
//   phone    10 digits -> (313) 555-0100
//   lines    a list of texts, one a line (a mailing address)
//   address  { street, street2, city, state, zip } -> "1 Main St" / "Ann Arbor, MI 48104"
//   plain    text with its markup removed (plan names may hold <sup>&reg;</sup>)

import { isIsoDate } from './dates';
import { displayMasked } from './masks';
import { isRecord } from './paths';
import { translate, type Translate } from './translate';
import { formatDate } from '@/lib/dates';
import { formatPremium } from '@/lib/money';
import { plainText } from '@/lib/plain-text';

export const YES = /*i18n*/ { id: 'Yes' };
export const NO = /*i18n*/ { id: 'No' };

export const VALUE_FORMATS = ['text', 'date', 'money', 'phone', 'lines', 'address', 'plain'] as const;
export type ValueFormat = (typeof VALUE_FORMATS)[number];

// Plain numbers stay as they are: they may be identifiers (a ZIP, a year, a member id).
function text(value: unknown, t?: Translate): string[] {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return [];
    return [isIsoDate(trimmed) ? formatDate(trimmed) : trimmed];
  }
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  if (typeof value === 'boolean') return [translate(t, value ? YES : NO)];
  return [];
}

function money(value: unknown): string[] {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? [formatPremium(n)] : [];
}

function phone(value: unknown, t?: Translate): string[] {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  const digits = String(value).replace(/\D/g, '');
  return digits.length === 10 ? [displayMasked('phone', digits)] : text(value, t);
}

function address(value: unknown, t?: Translate): string[] {
  if (!isRecord(value)) return [];
  const part = (k: string) => text(value[k], t)[0] ?? '';
  const city = [part('city'), part('state')].filter(Boolean).join(', ');
  const last = [city, part('zip')].filter(Boolean).join(' ');
  return [part('street'), part('street2'), last].filter((l) => l !== '');
}

/**
 * The lines a value shows in the given format (unknown formats: `text`); the app's words (Yes, No)
 * through `t`, the page's translation function (English without one).
 */
export function formatValue(value: unknown, format?: unknown, t?: Translate): string[] {
  switch (format) {
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? [formatDate(value)] : text(value, t);
    case 'money':
      return money(value);
    case 'phone':
      return phone(value, t);
    case 'lines':
      return (Array.isArray(value) ? value : [value]).flatMap((v) => text(v, t));
    case 'address':
      return address(value, t);
    case 'plain':
      return typeof value === 'string' ? text(plainText(value), t) : text(value, t);
    default:
      return text(value, t);
  }
}
