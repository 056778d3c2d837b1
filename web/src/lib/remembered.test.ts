import { describe, expect, it } from 'vitest';
import { remembered } from './remembered';

describe('remembered', () => {
  it('computes each argument once and gives the same answer after', () => {
    const calls: number[] = [];
    const double = remembered(10, (n: number) => {
      calls.push(n);
      return { n: n * 2 };
    });
    const first = double(2);
    expect(double(2)).toBe(first);
    expect(double(3)).toEqual({ n: 6 });
    expect(calls).toEqual([2, 3]);
  });

  it('keeps no more than its limit, and still answers right past it', () => {
    const calls: number[] = [];
    const square = remembered(3, (n: number) => {
      calls.push(n);
      return n * n;
    });
    for (const n of [1, 2, 3, 4]) expect(square(n)).toBe(n * n);
    // The fourth forgot the first three.
    expect(square(1)).toBe(1);
    expect(square(4)).toBe(16);
    expect(calls).toEqual([1, 2, 3, 4, 1]);
  });

  it('remembers an answer that is undefined', () => {
    let calls = 0;
    const nothing = remembered(3, () => {
      calls += 1;
      return undefined;
    });
    nothing('a');
    nothing('a');
    expect(calls).toBe(1);
  });
});
