// The plan filters as the server's tokens (spec part 1, 7 "Plans"): car_{id}, net_{id}, m_{id},
// attribute ids (hsa, dental_only, dental_and_vision), plan_{id}, minPrice:{n}, maxPrice:{n}.

import type { FilterOption, PriceRange } from '../types';

/** The thumbs of the price slider in whole dollars. */
export interface PriceValues {
  min: number;
  max: number;
}

export interface FilterState {
  carriers: number[];
  networks: number[];
  metals: number[];
  /** Attribute ids, which are their own tokens. */
  attributes: string[];
  /** null: the whole range (no price tokens). */
  price: PriceValues | null;
}

export type FilterGroup = 'carriers' | 'networks' | 'metals' | 'attributes';

export const NO_FILTERS: FilterState = { carriers: [], networks: [], metals: [], attributes: [], price: null };

const PREFIX: Record<Exclude<FilterGroup, 'attributes'>, string> = { carriers: 'car_', networks: 'net_', metals: 'm_' };

const ATTRIBUTE = /^[a-z][a-z_]*$/;

function ids(list: readonly number[]): number[] {
  return [...new Set(list.filter((n) => Number.isInteger(n) && n >= 0))].sort((a, b) => a - b);
}

/**
 * The price tokens of the slider. A thumb at its end of the range adds nothing: the range is the
 * cheapest and dearest totals rounded up to a step, so `minPrice` at the bottom would hide the
 * cheapest plan.
 */
export function priceTokens(price: PriceValues | null, range: PriceRange | null): string[] {
  if (!price || !range) return [];
  const out: string[] = [];
  if (price.min > range.min) out.push(`minPrice:${price.min}`);
  if (price.max < range.max) out.push(`maxPrice:${price.max}`);
  return out;
}

/** The tokens of the filters, in a stable order (groups, then price). */
export function filterTokens(state: FilterState, range: PriceRange | null): string[] {
  const out: string[] = [];
  for (const group of ['carriers', 'networks', 'metals'] as const) {
    for (const id of ids(state[group])) out.push(`${PREFIX[group]}${id}`);
  }
  for (const a of [...new Set(state.attributes)].sort()) {
    if (ATTRIBUTE.test(a)) out.push(a);
  }
  out.push(...priceTokens(state.price, range));
  return out;
}

/** The tokens that print exactly these plans (the compare modal's Print this comparison). */
export function planTokens(planIds: readonly number[]): string[] {
  return ids(planIds).map((id) => `plan_${id}`);
}

/** Ticks or unticks an option of a group. */
export function toggleOption(state: FilterState, group: FilterGroup, option: FilterOption, on: boolean): FilterState {
  if (group === 'attributes') {
    const id = String(option.id);
    const rest = state.attributes.filter((a) => a !== id);
    return { ...state, attributes: on ? [...rest, id] : rest };
  }
  const id = Number(option.id);
  if (!Number.isInteger(id)) return state;
  const rest = state[group].filter((v) => v !== id);
  return { ...state, [group]: on ? [...rest, id] : rest };
}

/** Whether an option is ticked. */
export function isTicked(state: FilterState, group: FilterGroup, option: FilterOption): boolean {
  return group === 'attributes'
    ? state.attributes.includes(String(option.id))
    : state[group].includes(Number(option.id));
}

/** Whether any filter narrows the list. */
export function hasFilters(state: FilterState, range: PriceRange | null): boolean {
  return filterTokens(state, range).length > 0;
}

/** How many filters are on: each option ticked, and the price range when it is narrowed. */
export function filterCount(state: FilterState, range: PriceRange | null): number {
  const tokens = filterTokens(state, range);
  const prices = tokens.filter((t) => t.startsWith('minPrice:') || t.startsWith('maxPrice:')).length;
  return tokens.length - prices + (prices > 0 ? 1 : 0);
}
