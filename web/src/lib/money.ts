// US dollar amounts, one formatter for every screen (plan pages, review, the forms' summaries), in
// the page's language ("$1,234.50" in English).

import { i18n, languageTag } from '@/i18n';
import { remembered } from './remembered';

/** Shown for an amount the plan does not give. */
export const NOT_AVAILABLE = /*i18n*/ { id: 'N/A' };

/**
 * A formatter that remembers what it wrote: a plan page formats a few hundred amounts (60 cards,
 * each with its premium, deductibles and maximum), most of them the same few figures, and a
 * `format` call is the costliest part of drawing a card's text.
 */
function rememberingFormat(formatter: Intl.NumberFormat): (value: number) => string {
  const known = remembered(4_000, (value: number) => formatter.format(value));
  // A map does not tell -0 from 0, which a formatter writes with its sign.
  return (value) => (Object.is(value, -0) ? formatter.format(value) : known(value));
}

interface Formats {
  cents: (value: number) => string;
  whole: (value: number) => string;
  percent: (value: number) => string;
}

const byLanguage = new Map<string, Formats>();

/** The page's language (English before one is active: unit tests of plain functions). */
function formats(): Formats {
  const tag = languageTag(i18n.locale || 'en');
  let f = byLanguage.get(tag);
  if (!f) {
    f = {
      cents: rememberingFormat(new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 })),
      whole: rememberingFormat(
        new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 0 }),
      ),
      percent: rememberingFormat(new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 4 })),
    };
    byLanguage.set(tag, f);
  }
  return f;
}

/**
 * Builds the page's formatters ahead of need. A browser's first `Intl.NumberFormat` loads its
 * number data: about 35 ms on a mid-range phone, which a plan page would otherwise spend after its
 * list arrived, before drawing the first card. Called while the list is on its way.
 */
export function prepareFormats(): void {
  const f = formats();
  f.cents(0);
  f.whole(0);
  f.percent(0);
}

function notAvailable(): string {
  return i18n.locale ? i18n._(NOT_AVAILABLE) : NOT_AVAILABLE.id;
}

/** A premium: always with cents ("$1,234.50"). */
export function formatPremium(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formats().cents(value) : notAvailable();
}

/** A benefit amount: cents only when there are some ("$6,000", "$12.50"). */
export function formatAmount(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return notAvailable();
  const f = formats();
  return Number.isInteger(value) ? f.whole(value) : f.cents(value);
}

/** A percentage ("20%"). */
export function formatPercent(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? formats().percent(value / 100) : notAvailable();
}

/** "individual / family" amounts ("$1,500 / $3,000"). */
export function formatPair(a: number | null | undefined, b: number | null | undefined): string {
  if (a == null && b == null) return notAvailable();
  return `${formatAmount(a)} / ${formatAmount(b)}`;
}
