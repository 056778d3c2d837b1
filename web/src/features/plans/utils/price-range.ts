// The two-thumb price slider (spec part 1, 4.4): bounds and step from the server's price_range.

import type { PriceRange } from '../types';
import type { PriceValues } from './filter-tokens';

/** A dollar value on the slider: a multiple of the step, within the range. */
export function snapToStep(value: number, range: PriceRange): number {
  const step = range.step > 0 ? range.step : 1;
  if (!Number.isFinite(value)) return range.min;
  const snapped = Math.round(value / step) * step;
  return Math.min(range.max, Math.max(range.min, snapped));
}

/** The thumbs' values: the whole range when none is set. */
export function sliderValues(price: PriceValues | null, range: PriceRange): PriceValues {
  if (!price) return { min: range.min, max: range.max };
  const min = snapToStep(price.min, range);
  const max = snapToStep(price.max, range);
  return min <= max ? { min, max } : { min: max, max };
}

/** Moves one thumb; it stops at the other one. Returns null when the slider covers the whole range again. */
export function moveThumb(
  current: PriceValues | null,
  thumb: 'min' | 'max',
  value: number,
  range: PriceRange,
): PriceValues | null {
  const now = sliderValues(current, range);
  const v = snapToStep(value, range);
  const next = thumb === 'min' ? { min: Math.min(v, now.max), max: now.max } : { min: now.min, max: Math.max(v, now.min) };
  return next.min === range.min && next.max === range.max ? null : next;
}

/** A stable key of a range: the slider resets when it changes. */
export function rangeKey(range: PriceRange | null): string {
  return range ? `${range.min}:${range.max}:${range.step}` : '';
}
