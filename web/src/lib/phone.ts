// Phone and fax numbers arrive as digit strings ("5175550142").

function digitsOf(value: string | null | undefined): string {
  return (value ?? '').replace(/\D/g, '');
}

/** `(xxx) xxx-xxxx` for the first ten digits; anything shorter is returned as given. */
export function formatPhone(value: string | null | undefined): string {
  const digits = digitsOf(value);
  if (digits.length < 10) return (value ?? '').trim();
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6, 10)}`;
}

/** `tel:` link: "1" plus the first ten digits (spec part 1, 2.3). */
export function telHref(value: string | null | undefined): string {
  return `tel:1${digitsOf(value).slice(0, 10)}`;
}
