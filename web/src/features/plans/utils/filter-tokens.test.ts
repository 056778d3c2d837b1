import { describe, expect, it } from 'vitest';
import { filterCount, filterTokens, hasFilters, isTicked, NO_FILTERS, planTokens, priceTokens, toggleOption } from './filter-tokens';

const range = { min: 320, max: 1300, step: 10 };

describe('filterTokens', () => {
  it('is empty without filters', () => {
    expect(filterTokens(NO_FILTERS, range)).toEqual([]);
    expect(hasFilters(NO_FILTERS, range)).toBe(false);
  });

  it('names carriers, networks, metals, attributes and prices in a stable order', () => {
    const state = {
      carriers: [3, 1, 3],
      networks: [2],
      metals: [5, 4],
      attributes: ['hsa'],
      price: { min: 400, max: 900 },
    };
    expect(filterTokens(state, range)).toEqual([
      'car_1',
      'car_3',
      'net_2',
      'm_4',
      'm_5',
      'hsa',
      'minPrice:400',
      'maxPrice:900',
    ]);
  });

  it('sends dental only and dental and vision as their own tokens', () => {
    const state = { ...NO_FILTERS, attributes: ['dental_only', 'dental_and_vision'] };
    expect(filterTokens(state, range)).toEqual(['dental_and_vision', 'dental_only']);
  });

  it('drops attribute ids that are not tokens', () => {
    expect(filterTokens({ ...NO_FILTERS, attributes: ['hsa,car_1', 'Drop table'] }, range)).toEqual([]);
  });
});

describe('filterCount', () => {
  it('counts each ticked option once, and a narrowed price range as one filter', () => {
    expect(filterCount(NO_FILTERS, range)).toBe(0);
    const state = { carriers: [3, 1, 3], networks: [2], metals: [], attributes: ['hsa'], price: { min: 400, max: 900 } };
    expect(filterCount(state, range)).toBe(5);
    expect(filterCount({ ...state, price: { min: 320, max: 900 } }, range)).toBe(5);
    // The whole range is no filter.
    expect(filterCount({ ...state, price: { min: 320, max: 1300 } }, range)).toBe(4);
  });
});

describe('priceTokens', () => {
  it('adds nothing for a thumb at its end of the range (the bottom is rounded up past the cheapest plan)', () => {
    expect(priceTokens({ min: 320, max: 1300 }, range)).toEqual([]);
    expect(priceTokens({ min: 330, max: 1300 }, range)).toEqual(['minPrice:330']);
    expect(priceTokens({ min: 320, max: 1290 }, range)).toEqual(['maxPrice:1290']);
    expect(priceTokens(null, range)).toEqual([]);
    expect(priceTokens({ min: 400, max: 500 }, null)).toEqual([]);
  });
});

describe('toggleOption', () => {
  it('ticks and unticks numeric options and attributes', () => {
    let s = toggleOption(NO_FILTERS, 'carriers', { id: 2, name: 'Blue Care Network' }, true);
    expect(s.carriers).toEqual([2]);
    expect(isTicked(s, 'carriers', { id: 2, name: '' })).toBe(true);
    s = toggleOption(s, 'attributes', { id: 'hsa', name: 'HSA eligible' }, true);
    expect(filterTokens(s, range)).toEqual(['car_2', 'hsa']);
    s = toggleOption(s, 'carriers', { id: 2, name: '' }, false);
    expect(s.carriers).toEqual([]);
    expect(isTicked(s, 'attributes', { id: 'hsa', name: '' })).toBe(true);
  });

  it('ignores an option whose id is not a number in a numeric group', () => {
    expect(toggleOption(NO_FILTERS, 'metals', { id: 'gold', name: 'Gold' }, true)).toBe(NO_FILTERS);
  });
});

describe('planTokens', () => {
  it('prints exactly the compared plans', () => {
    expect(planTokens([531, 520, 531])).toEqual(['plan_520', 'plan_531']);
  });
});
