import { ApiError, GENERIC_ERROR } from '@/lib/api-client';

export interface ShownErrors<F extends string> {
  /** One message per field of the form (the server's messages for it, joined). */
  fields: Partial<Record<F, string>>;
  /** Messages for no field of the form (a used link, throttling, a network failure), shown above it. */
  other: string[];
}

/**
 * Spreads a failed call's errors over a form (spec part 1, 8: the server's errors map per field or
 * as a list). `keys` maps the server's error keys to the form's fields (`login_password` → `password`);
 * keys the form has no field for, and errors without a map, become `other`.
 */
export function shownErrors<F extends string>(error: unknown, keys: Record<string, F>): ShownErrors<F> {
  if (!(error instanceof ApiError)) return { fields: {}, other: [GENERIC_ERROR.id] };
  if (!error.fieldErrors) return { fields: {}, other: [error.message || GENERIC_ERROR.id] };
  const fields: Partial<Record<F, string>> = {};
  const other: string[] = [];
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    const list = Array.isArray(messages) ? messages : [String(messages)];
    const field = Object.prototype.hasOwnProperty.call(keys, key) ? keys[key] : undefined;
    if (field) fields[field] = [fields[field], ...list].filter(Boolean).join(' ');
    else other.push(...list);
  }
  if (Object.keys(fields).length === 0 && other.length === 0) other.push(error.message || GENERIC_ERROR.id);
  return { fields, other };
}
