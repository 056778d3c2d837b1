// US dollar amounts, one formatter for every screen (plan pages, review, the forms' summaries).

const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 0 });

export const NOT_AVAILABLE = 'N/A';

/** A premium: always with cents ("$1,234.50"). */
export function formatPremium(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? cents.format(value) : NOT_AVAILABLE;
}

/** A benefit amount: cents only when there are some ("$6,000", "$12.50"). */
export function formatAmount(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return NOT_AVAILABLE;
  return Number.isInteger(value) ? whole.format(value) : cents.format(value);
}

/** A percentage ("20%"). */
export function formatPercent(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value}%` : NOT_AVAILABLE;
}

/** "individual / family" amounts ("$1,500 / $3,000"). */
export function formatPair(a: number | null | undefined, b: number | null | undefined): string {
  if (a == null && b == null) return NOT_AVAILABLE;
  return `${formatAmount(a)} / ${formatAmount(b)}`;
}
