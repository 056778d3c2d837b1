import { describe, expect, it } from 'vitest';
import { fillTemplate, isTruthy, lookup } from './template';

describe('fillTemplate', () => {
  it('fills item numbers, fields, dotted extras and shows dates mm/dd/yyyy', () => {
    expect(fillTemplate('Dependent {n}', { n: 3 })).toBe('Dependent 3');
    expect(fillTemplate('Dependent born {birth_date}', { birth_date: '2012-05-01' })).toBe('Dependent born 05/01/2012');
    expect(fillTemplate('Open {oep.start_date} to {oep.end_date}', { oep: { start_date: '2024-11-01', end_date: '2025-01-15' } })).toBe(
      'Open 11/01/2024 to 01/15/2025',
    );
    expect(fillTemplate('{zip} is not valid{agent_suffix}.', { zip: '90210' })).toBe('90210 is not valid.');
  });
});

describe('lookup and isTruthy', () => {
  it('reads dotted paths through lists and tells given values from missing ones', () => {
    const values = { applicants: [{ name: 'Ann' }], oep: { end_date: '2025-01-15' } };
    expect(lookup(values, 'applicants.0.name')).toBe('Ann');
    expect(lookup(values, 'oep.end_date')).toBe('2025-01-15');
    expect(lookup(values, 'oep.start_date.x')).toBeUndefined();
    expect([true, 'x', 1, [1], {}].map(isTruthy)).toEqual([true, true, true, true, true]);
    expect([undefined, null, false, 0, '', []].map(isTruthy)).toEqual([false, false, false, false, false, false]);
  });
});
