// The server answers a refused save with `{errors: {field_key: [message]}}`, keyed by the spec's
// field keys (engine/src/form/validate.rs `error_key`): a top-level field is its own key; `x-error-prefix` on
// an object names its fields (`spouse_` -> `spouse_gender`), on an array each item's
// (`dependent{n}_` -> `dependent3_birth_date`; `{member_id}` or any `{field}` takes the item's value).
// This file turns those keys back into field paths for RJSF's error schema.

import type { ErrorSchema } from '@rjsf/utils';
import { isRecord, type FieldPath } from './paths';

export type ServerErrors = Record<string, string[]>;

function itemPrefix(prefix: string, index: number, item: unknown): string {
  return prefix.replace(/\{([^}]+)\}/g, (_, field: string) => {
    if (field === 'n') return String(index + 1);
    const v = isRecord(item) ? item[field] : undefined;
    return v === undefined || v === null ? '' : String(v);
  });
}

/** Nested fields of an object schema under a key prefix: `prefix + a_b` -> [...path, 'a', 'b']. */
function addNested(keys: Map<string, FieldPath>, schema: Record<string, unknown>, prefix: string, path: FieldPath) {
  if (!isRecord(schema.properties)) return;
  for (const [name, sub] of Object.entries(schema.properties)) {
    const key = `${prefix}${name}`;
    if (!keys.has(key)) keys.set(key, [...path, name]);
    if (isRecord(sub) && isRecord(sub.properties)) addNested(keys, sub, `${key}_`, [...path, name]);
  }
}

/** Every error key the server can give for this schema and these answers, with its field path. */
export function errorKeyPaths(schema: unknown, data: unknown): Map<string, FieldPath> {
  const keys = new Map<string, FieldPath>();
  if (!isRecord(schema) || !isRecord(schema.properties)) return keys;
  const root = isRecord(data) ? data : {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    keys.set(name, [name]);
    if (!isRecord(prop)) continue;
    const prefix = typeof prop['x-error-prefix'] === 'string' ? prop['x-error-prefix'] : null;
    if (prop.type === 'array') {
      const items = Array.isArray(root[name]) ? (root[name] as unknown[]) : [];
      items.forEach((item, index) => {
        const itemSchema = isRecord(prop.items) ? prop.items : {};
        if (prefix !== null) {
          const p = itemPrefix(prefix, index, item);
          const own = p.replace(/_+$/, '');
          if (!keys.has(own)) keys.set(own, [name, index]);
          addNested(keys, itemSchema, p, [name, index]);
        } else {
          // Without a prefix the server names the innermost field only; the first item takes it.
          addNested(keys, itemSchema, '', [name, index]);
        }
      });
    } else if (isRecord(prop.properties)) {
      addNested(keys, prop, prefix ?? '', [name]);
    }
  }
  return keys;
}

/** A field's errors, for the summary at the top of the step. */
export interface FieldErrorsAt {
  path: FieldPath;
  messages: string[];
}

export interface PlacedErrors {
  /** RJSF's error schema (`extraErrors`) for the fields on the page. */
  errorSchema: ErrorSchema;
  /** The fields with errors, in the order of the form. */
  fields: FieldErrorsAt[];
  /** Messages without a field to show them under (unknown keys, hidden fields): shown in the banner. */
  unplaced: string[];
}

function addAt(schema: Record<string, unknown>, path: FieldPath, messages: string[]) {
  let node = schema;
  for (const seg of path) {
    const key = String(seg);
    if (!isRecord(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const list = Array.isArray(node.__errors) ? (node.__errors as string[]) : [];
  node.__errors = [...list, ...messages.filter((m) => !list.includes(m))];
}

/** Server errors placed under their fields; `isShown` says whether a field is on the page. */
export function placeErrors(
  errors: ServerErrors,
  schema: unknown,
  data: unknown,
  isShown: (path: FieldPath) => boolean = () => true,
): PlacedErrors {
  const keys = errorKeyPaths(schema, data);
  const order = [...keys.keys()];
  const errorSchema: Record<string, unknown> = {};
  const unplaced: string[] = [];
  const fields: (FieldErrorsAt & { at: number })[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    const list = Array.isArray(messages) ? messages.filter((m) => typeof m === 'string') : [];
    if (list.length === 0) continue;
    const path = keys.get(key);
    if (path && isShown(path)) {
      addAt(errorSchema, path, list);
      fields.push({ path, messages: list, at: order.indexOf(key) });
    } else unplaced.push(...list.filter((m) => !unplaced.includes(m)));
  }
  fields.sort((a, b) => a.at - b.at);
  return { errorSchema: errorSchema as ErrorSchema, fields: fields.map(({ path, messages }) => ({ path, messages })), unplaced };
}
