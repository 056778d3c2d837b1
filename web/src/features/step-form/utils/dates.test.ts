import { describe, expect, it } from 'vitest';
import { ageAt, displayDate, formatUsDateInput, isoToUs, parseUsDateInput, usToIso } from './dates';

describe('dates', () => {
  it('shows ISO dates as mm/dd/yyyy and reads them back', () => {
    expect(isoToUs('1985-03-02')).toBe('03/02/1985');
    expect(usToIso('03/02/1985')).toBe('1985-03-02');
    expect(usToIso('02/30/2024')).toBeNull();
    expect(usToIso('02/29/2024')).toBe('2024-02-29');
    expect(usToIso('3/2/1985')).toBeNull();
  });

  it('puts the slashes in while typing', () => {
    expect(formatUsDateInput('0')).toBe('0');
    expect(formatUsDateInput('030')).toBe('03/0');
    expect(formatUsDateInput('03021985')).toBe('03/02/1985');
    expect(formatUsDateInput('03/02/19851')).toBe('03/02/1985');
  });

  it('stores a whole date as ISO, a partial one as typed, nothing as undefined', () => {
    expect(parseUsDateInput('03/02/1985')).toBe('1985-03-02');
    expect(parseUsDateInput('03021985')).toBe('1985-03-02');
    expect(parseUsDateInput('03/02/19')).toBe('03/02/19');
    expect(parseUsDateInput('13/45/2020')).toBe('13/45/2020');
    expect(parseUsDateInput('')).toBeUndefined();
    expect(displayDate('1985-03-02')).toBe('03/02/1985');
    expect(displayDate('03/02/19')).toBe('03/02/19');
    expect(displayDate(undefined)).toBe('');
  });

  it('counts whole years as the server does', () => {
    expect(ageAt('2008-12-15', '2024-12-14')).toBe(15);
    expect(ageAt('2008-12-15', '2024-12-15')).toBe(16);
    expect(ageAt('2008-02-29', '2025-02-28')).toBe(16);
    expect(ageAt('2008-02-29', '2025-03-01')).toBe(17);
    expect(ageAt('03/02/19', '2025-01-01')).toBeNull();
  });
});
