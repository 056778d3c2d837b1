import { i18n } from '@/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, isoToUs } from './dates';

describe('dates', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  it('writes ISO dates mm/dd/yyyy for the date fields, whatever the language', () => {
    i18n.loadAndActivate({ locale: 'es', messages: {} });
    expect(isoToUs('1985-03-02')).toBe('03/02/1985');
    expect(isoToUs('03/02/1985')).toBe('03/02/1985');
  });

  it('shows a date mm/dd/yyyy in Spanish too, as it was typed, its digits as given', () => {
    expect(formatDate('1985-03-02')).toBe('03/02/1985');
    expect(formatDate('2024-02-30')).toBe('02/30/2024');
    expect(formatDate('0012-11-05')).toBe('11/05/0012');
    i18n.loadAndActivate({ locale: 'es', messages: {} });
    expect(formatDate('1985-03-02')).toBe('03/02/1985');
  });

  it('returns anything but an ISO date as it is', () => {
    expect(formatDate('03/02')).toBe('03/02');
    expect(formatDate('')).toBe('');
  });
});
