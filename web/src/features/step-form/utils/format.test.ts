import { describe, expect, it } from 'vitest';
import { formatValue } from './format';

describe('formatValue', () => {
  it('shows texts, numbers, yes/no and ISO dates as text; nothing for a missing value', () => {
    expect(formatValue('Ann B Lee')).toEqual(['Ann B Lee']);
    expect(formatValue(' ')).toEqual([]);
    expect(formatValue(null)).toEqual([]);
    expect(formatValue({ a: 1 })).toEqual([]);
    expect(formatValue(3)).toEqual(['3']);
    expect(formatValue(true)).toEqual(['Yes']);
    expect(formatValue('1985-03-02')).toEqual(['03/02/1985']);
    expect(formatValue('1985-03-02', 'date')).toEqual(['03/02/1985']);
  });

  it('shows money in US dollars and phones with their mask', () => {
    expect(formatValue(612.5, 'money')).toEqual(['$612.50']);
    expect(formatValue(1647.5, 'money')).toEqual(['$1,647.50']);
    expect(formatValue('35', 'money')).toEqual(['$35.00']);
    expect(formatValue(null, 'money')).toEqual([]);
    expect(formatValue('3135550100', 'phone')).toEqual(['(313) 555-0100']);
    expect(formatValue('555', 'phone')).toEqual(['555']);
  });

  it('shows addresses and lists of lines one a line', () => {
    expect(formatValue({ street: '1 Main St', city: 'Ann Arbor', state: 'MI', zip: '48104' }, 'address')).toEqual([
      '1 Main St',
      'Ann Arbor, MI 48104',
    ]);
    expect(formatValue({ street: null, city: null, state: null, zip: '48104' }, 'address')).toEqual(['48104']);
    expect(formatValue({}, 'address')).toEqual([]);
    expect(formatValue(['Priority Health', '', '1231 E. Beltline Ave NE'], 'lines')).toEqual(['Priority Health', '1231 E. Beltline Ave NE']);
  });

  it('drops markup from plan names', () => {
    expect(formatValue('UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO', 'plain')).toEqual(['UnitedHealthcare Choice Plus® Silver PPO']);
    expect(formatValue('<img src=x onerror=alert(1)>Gold', 'plain')).toEqual(['Gold']);
  });
});
