import { describe, expect, it } from 'vitest';
import { getAt, isAnswered, parseFieldPath, schemaAt, setAt } from './paths';

describe('paths', () => {
  it('reads and writes answers by path without changing the original', () => {
    const data = { spouse: { gender: 'F' }, dependents: [{ gender: 'M' }] };
    expect(getAt(data, ['dependents', 0, 'gender'])).toBe('M');
    const next = setAt(data, ['dependents', 1, 'gender'], 'F') as typeof data;
    expect(next.dependents).toEqual([{ gender: 'M' }, { gender: 'F' }]);
    expect(data.dependents).toHaveLength(1);
    expect(setAt(data, ['spouse'], undefined)).toEqual({ dependents: [{ gender: 'M' }] });
    expect(setAt(undefined, ['a', 'b'], 1)).toEqual({ a: { b: 1 } });
  });

  it('finds a field schema through properties and items', () => {
    const schema = { properties: { dependents: { type: 'array', items: { properties: { gender: { title: 'Gender' } } } } } };
    expect(schemaAt(schema, ['dependents', 4, 'gender'])).toEqual({ title: 'Gender' });
    expect(schemaAt(schema, ['nope'])).toBeUndefined();
  });

  it('reads form-file paths and tells given answers from missing ones', () => {
    expect(parseFieldPath('dependents/0/birth_date')).toEqual(['dependents', 0, 'birth_date']);
    expect(parseFieldPath('agree_tc')).toEqual(['agree_tc']);
    // 0 ("No") is an answer; an unticked box is not.
    expect([0, 'oe', true, [1]].map(isAnswered)).toEqual([true, true, true, true]);
    expect([undefined, null, '', false, []].map(isAnswered)).toEqual([false, false, false, false, false]);
  });
});
