import { describe, expect, it } from 'vitest';
import { formatPhone, telHref } from './phone';

describe('formatPhone', () => {
  it('formats ten digits as (xxx) xxx-xxxx', () => {
    expect(formatPhone('5175550142')).toBe('(517) 555-0142');
  });

  it('ignores punctuation already in the number', () => {
    expect(formatPhone('517-555-0142')).toBe('(517) 555-0142');
  });

  it('uses only the first ten digits', () => {
    expect(formatPhone('51755501429999')).toBe('(517) 555-0142');
  });

  it('leaves short or empty values alone', () => {
    expect(formatPhone('55501')).toBe('55501');
    expect(formatPhone(null)).toBe('');
  });
});

describe('telHref', () => {
  it('is "1" plus the first ten digits', () => {
    expect(telHref('5175551234')).toBe('tel:15175551234');
    expect(telHref('(517) 555-1234 ext 9')).toBe('tel:15175551234');
  });
});
