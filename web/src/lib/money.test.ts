import { i18n } from '@/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { formatAmount, formatPair, formatPercent, formatPremium, NOT_AVAILABLE } from './money';

describe('money', () => {
  it('formats premiums in US dollars with cents', () => {
    expect(formatPremium(389.94)).toBe('$389.94');
    expect(formatPremium(1234.5)).toBe('$1,234.50');
    expect(formatPremium(0)).toBe('$0.00');
    expect(formatPremium(null)).toBe(NOT_AVAILABLE.id);
  });

  it('formats benefit amounts without cents unless there are some', () => {
    expect(formatAmount(18400)).toBe('$18,400');
    expect(formatAmount(12.5)).toBe('$12.50');
    expect(formatAmount(undefined)).toBe(NOT_AVAILABLE.id);
    expect(formatAmount(Number.NaN)).toBe(NOT_AVAILABLE.id);
  });

  it('formats percentages and individual / family pairs', () => {
    expect(formatPercent(20)).toBe('20%');
    expect(formatPercent(null)).toBe(NOT_AVAILABLE.id);
    expect(formatPair(1500, 3000)).toBe('$1,500 / $3,000');
    expect(formatPair(null, null)).toBe(NOT_AVAILABLE.id);
  });

  it('writes a figure the same however many figures were written before (they are remembered)', () => {
    expect(formatPremium(389.94)).toBe('$389.94');
    for (let i = 0; i < 5_000; i++) formatPremium(i + 0.25);
    expect(formatPremium(389.94)).toBe('$389.94');
    expect(formatPremium(4_999.25)).toBe('$4,999.25');
    // 0 and -0 are one key of a map, not one text.
    expect(formatAmount(0)).toBe('$0');
    expect(formatAmount(-0)).toBe('-$0');
    expect(formatAmount(0)).toBe('$0');
  });

  describe('in Spanish', () => {
    afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

    it('formats dollars as US Spanish writes them', () => {
      i18n.loadAndActivate({ locale: 'es', messages: { 'N/A': 'N/D' } });
      expect(formatPremium(1234.5)).toBe('$1,234.50');
      expect(formatAmount(18400)).toBe('$18,400');
      expect(formatPercent(20)).toBe('20%');
      expect(formatPremium(null)).toBe('N/D');
    });
  });
});
