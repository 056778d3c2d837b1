import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n';
import '@/test/render'; // the catalogs, English active
import { atCompareLimit, canCompare, COMPARE_LIMIT_WARNING, compareDisabled, MAX_COMPARE, toggleCompare } from './compare';

const plans = Array.from({ length: 8 }, (_, i) => ({ id: 500 + i }));

describe('compare', () => {
  it('needs two plans for Compare Selected Plans', () => {
    let list = toggleCompare([], plans[0]!, true);
    expect(canCompare(list)).toBe(false);
    list = toggleCompare(list, plans[1]!, true);
    expect(canCompare(list)).toBe(true);
  });

  it('stops at six plans, disabling the others and warning', () => {
    let list: { id: number }[] = [];
    for (const p of plans.slice(0, MAX_COMPARE)) list = toggleCompare(list, p, true);
    expect(list).toHaveLength(6);
    expect(atCompareLimit(list)).toBe(true);
    expect(toggleCompare(list, plans[6]!, true)).toHaveLength(6);
    expect(compareDisabled(list, plans[6]!.id)).toBe(true);
    expect(compareDisabled(list, plans[0]!.id)).toBe(false);
    expect(i18n._(COMPARE_LIMIT_WARNING)).toBe('You selected the maximum number of plans to compare (6).');
    list = toggleCompare(list, plans[0]!, false);
    expect(atCompareLimit(list)).toBe(false);
    expect(compareDisabled(list, plans[6]!.id)).toBe(false);
  });

  it('does not add a plan twice', () => {
    const list = toggleCompare([plans[0]!], plans[0]!, true);
    expect(list).toEqual([plans[0]]);
  });
});
