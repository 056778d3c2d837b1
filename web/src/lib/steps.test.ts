import { describe, expect, it } from 'vitest';
import { STEPS, stepPathByNumber } from './steps';

describe('steps', () => {
  it('numbers the ten steps 1 to 10 in wizard order', () => {
    expect(STEPS.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(STEPS.map((s) => s.path)).toEqual([
      '/whyapplying',
      '/census',
      '/medical',
      '/dental',
      '/vision',
      '/review',
      '/subInfo',
      '/other',
      '/pcp',
      '/rap',
    ]);
  });

  it('maps a last step number to its route, defaulting to the first step', () => {
    expect(stepPathByNumber(3)).toBe('/medical');
    expect(stepPathByNumber(10)).toBe('/rap');
    expect(stepPathByNumber(0)).toBe('/whyapplying');
  });
});
