// Dates are shown mm/dd/yyyy (spec part 1, 5; part 2, 9) and travel as ISO `YYYY-MM-DD`, in every
// language: a Spanish page types and shows mm/dd/aaaa as US forms do. Dates in words ("4 de
// diciembre de 2024") follow the page's language through Intl (`languageTag`).

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2024-03-02` -> `03/02/2024`; anything else is returned as it is. */
export function isoToUs(value: string): string {
  const m = ISO.exec(value);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : value;
}

/**
 * A date that is only shown: mm/dd/yyyy in every language, as the date fields are typed
 * (CuidadoDeSalud.gov writes mm/dd/aaaa too; docs/spec-decisions.md, "Languages").
 */
export function formatDate(value: string): string {
  return isoToUs(value);
}
