import { describe, expect, it } from 'vitest';
import { moveThumb, rangeKey, sliderValues, snapToStep } from './price-range';

const range = { min: 320, max: 1300, step: 10 };

describe('snapToStep', () => {
  it('rounds to the nearest step and stays within the range', () => {
    expect(snapToStep(454, range)).toBe(450);
    expect(snapToStep(455, range)).toBe(460);
    expect(snapToStep(10, range)).toBe(320);
    expect(snapToStep(5000, range)).toBe(1300);
    expect(snapToStep(Number.NaN, range)).toBe(320);
  });

  it('treats a zero step as one dollar', () => {
    expect(snapToStep(12.6, { min: 10, max: 20, step: 0 })).toBe(13);
  });
});

describe('sliderValues', () => {
  it('is the whole range by default, the maximum at the top', () => {
    expect(sliderValues(null, range)).toEqual({ min: 320, max: 1300 });
  });

  it('keeps the thumbs in order', () => {
    expect(sliderValues({ min: 900, max: 500 }, range)).toEqual({ min: 500, max: 500 });
  });
});

describe('moveThumb', () => {
  it('moves one thumb, stopping at the other', () => {
    const a = moveThumb(null, 'min', 503, range);
    expect(a).toEqual({ min: 500, max: 1300 });
    const b = moveThumb(a, 'max', 480, range);
    expect(b).toEqual({ min: 500, max: 500 });
    expect(moveThumb(b, 'min', 700, range)).toEqual({ min: 500, max: 500 });
  });

  it('comes back to "whole range" (null) at both ends', () => {
    expect(moveThumb({ min: 330, max: 1300 }, 'min', 320, range)).toBeNull();
  });
});

describe('rangeKey', () => {
  it('changes with any bound or the step', () => {
    expect(rangeKey(range)).not.toBe(rangeKey({ ...range, max: 1310 }));
    expect(rangeKey(null)).toBe('');
  });
});
