// Masked inputs (spec part 2, 5): what the field shows while typing, and what is sent.
// The server takes digits only (`^[0-9]{9}$` SSN, `^[0-9]{10}$` phone and NPI, `^[0-9]{5}$` ZIP);
// a stored SSN comes back masked (`*****6789`) and is sent back unchanged to keep it.

export type MaskName = 'ssn' | 'phone' | 'zip' | 'npi';

interface Mask {
  /** How many digits the value has. */
  digits: number;
  /** The shown text for the digits typed so far. */
  format: (digits: string) => string;
  /** Example shown as the field's hint. */
  hint: string;
}

export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

export const MASKS: Readonly<Record<MaskName, Mask>> = {
  // 123-45-6789; the dashes appear once a digit follows them.
  ssn: {
    digits: 9,
    hint: '###-##-####',
    format: (d) => (d.length <= 3 ? d : d.length <= 5 ? `${d.slice(0, 3)}-${d.slice(3)}` : `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`),
  },
  // (734) 555-0199
  phone: {
    digits: 10,
    hint: '(###) ###-####',
    format: (d) =>
      d.length === 0
        ? ''
        : d.length <= 3
          ? `(${d}`
          : d.length <= 6
            ? `(${d.slice(0, 3)}) ${d.slice(3)}`
            : `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
  },
  zip: { digits: 5, hint: '#####', format: (d) => d },
  npi: { digits: 10, hint: '##########', format: (d) => d },
};

export function isMaskName(name: unknown): name is MaskName {
  return typeof name === 'string' && Object.hasOwn(MASKS, name);
}

/** A value the server masked (`*****6789`): shown as such and sent back unchanged. */
export function isServerMask(value: unknown): value is string {
  return typeof value === 'string' && /^\*+\d{0,4}$/.test(value) && value.includes('*');
}

/** The text shown for a stored value. */
export function displayMasked(mask: MaskName, value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = String(value);
  if (isServerMask(text)) {
    // *****6789 -> ***-**-6789 for an SSN; other masks show the stars as they are.
    return text.length === MASKS[mask].digits ? MASKS[mask].format(text) : text;
  }
  return MASKS[mask].format(digitsOf(text).slice(0, MASKS[mask].digits));
}

/**
 * The value to store for what the user typed: digits only (at most the mask's count), or
 * undefined when nothing is left. A server mask the user did not touch stays the mask.
 */
export function parseMasked(mask: MaskName, typed: string, previous: unknown): string | undefined {
  if (isServerMask(previous) && typed === displayMasked(mask, previous)) return previous;
  const digits = digitsOf(typed).slice(0, MASKS[mask].digits);
  return digits === '' ? undefined : digits;
}
