import { describe, expect, it } from 'vitest';
import { displayMasked, isServerMask, parseMasked } from './masks';

describe('masked inputs', () => {
  it('shows an SSN 3-2-4 while typing and stores its digits', () => {
    expect(displayMasked('ssn', '123')).toBe('123');
    expect(displayMasked('ssn', '1234')).toBe('123-4');
    expect(displayMasked('ssn', '12345')).toBe('123-45');
    expect(displayMasked('ssn', '123456789')).toBe('123-45-6789');
    expect(parseMasked('ssn', '123-45-6789', undefined)).toBe('123456789');
    expect(parseMasked('ssn', '123-45-67890', undefined)).toBe('123456789');
    expect(parseMasked('ssn', 'abc', undefined)).toBeUndefined();
  });

  it('shows a phone (###) ###-#### and stores 10 digits', () => {
    expect(displayMasked('phone', '7')).toBe('(7');
    expect(displayMasked('phone', '7345')).toBe('(734) 5');
    expect(displayMasked('phone', '7345550199')).toBe('(734) 555-0199');
    expect(parseMasked('phone', '(734) 555-0199 ext', undefined)).toBe('7345550199');
    // Deleting back over the formatting leaves no stuck characters.
    expect(displayMasked('phone', parseMasked('phone', '(73', '734'))).toBe('(73');
  });

  it('keeps ZIP codes to 5 digits and NPIs to 10', () => {
    expect(parseMasked('zip', '48104-1234', undefined)).toBe('48104');
    expect(displayMasked('zip', '4810')).toBe('4810');
    expect(parseMasked('npi', '12345678901', undefined)).toBe('1234567890');
    expect(parseMasked('npi', '', '1')).toBeUndefined();
  });

  it('keeps a stored, masked SSN unless it is changed', () => {
    expect(isServerMask('*****6789')).toBe(true);
    expect(isServerMask('123456789')).toBe(false);
    expect(displayMasked('ssn', '*****6789')).toBe('***-**-6789');
    expect(parseMasked('ssn', '***-**-6789', '*****6789')).toBe('*****6789');
    // Any edit means a new number: the stars are not digits.
    expect(parseMasked('ssn', '***-**-67891', '*****6789')).toBe('67891');
    expect(parseMasked('ssn', '', '*****6789')).toBeUndefined();
  });
});
