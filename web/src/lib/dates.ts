// Dates are shown mm/dd/yyyy (spec part 1, 5; part 2, 9) and travel as ISO `YYYY-MM-DD`.

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2024-03-02` -> `03/02/2024`; anything else is returned as it is. */
export function isoToUs(value: string): string {
  const m = ISO.exec(value);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : value;
}
