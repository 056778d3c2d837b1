// `{name}` placeholders in texts of the form files (item titles, dialog bodies): `{n}` and a field of
// the item (`Dependent born {birth_date}`), or a dotted path into the values (`{oep.start_date}`).
// ISO dates are shown as the page's language writes them (mm/dd/yyyy in English); a missing value is
// left out.

import { formatDate } from '@/lib/dates';
import { isIsoDate } from './dates';
import { isRecord } from './paths';

/** The value at a dotted path (`oep.start_date`, `applicants.0.name`); undefined when missing. */
export function lookup(values: unknown, name: string): unknown {
  let v: unknown = values;
  for (const part of name.split('.')) {
    if (Array.isArray(v) && /^\d+$/.test(part)) v = v[Number(part)];
    else if (isRecord(v)) v = v[part];
    else return undefined;
  }
  return v;
}

export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z0-9_.]+)\}/g, (_, name: string) => {
    const v = lookup(values, name);
    if (v === undefined || v === null) return '';
    if (isIsoDate(v)) return formatDate(v);
    return typeof v === 'object' ? '' : String(v);
  });
}

/**
 * Whether a value counts as given for `when` / `unless` / `closedWhen` conditions: anything but a
 * missing value, false, 0, an empty text or an empty list.
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
}
