// `{name}` placeholders in texts of the form files (item titles, dialog bodies): `{n}` and a field of
// the item (`Dependent born {birth_date}`), or a dotted path into the values (`{oep.start_date}`).
// ISO dates are shown mm/dd/yyyy; a missing value is left out.

import { isoToUs, isIsoDate } from './dates';
import { isRecord } from './paths';

function lookup(values: Record<string, unknown>, name: string): unknown {
  let v: unknown = values;
  for (const part of name.split('.')) {
    if (!isRecord(v)) return undefined;
    v = v[part];
  }
  return v;
}

export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z0-9_.]+)\}/g, (_, name: string) => {
    const v = lookup(values, name);
    if (v === undefined || v === null) return '';
    if (isIsoDate(v)) return isoToUs(v);
    return typeof v === 'object' ? '' : String(v);
  });
}
