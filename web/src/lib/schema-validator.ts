import type { RJSFSchema, ValidatorType } from '@rjsf/utils';

// RJSF forms here never validate in the browser: the server is the authority (it answers a save
// with the errors map, and the playground's Validate button asks it). @rjsf/validator-ajv8 cannot
// run here: Ajv compiles schemas with `new Function`, which the CSP (`script-src 'self'`) blocks.
// RJSF still asks its validator whether data matches a schema to resolve `if`/`then`, `oneOf` and
// `anyOf`; matchesSchema answers that for the keywords the forms use. Used by the playground preview
// and the wizard's step forms.

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

function hasType(type: string, value: Json): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

function resolveRef(ref: string, root: Json): Json {
  if (!ref.startsWith('#')) return undefined;
  let node: Json = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, Json>)[key];
  }
  return node;
}

/**
 * Whether `value` matches `schema`, for the keywords that decide which branch of a form applies:
 * type, const, enum, required, properties, items, allOf, anyOf, oneOf, not, if/then/else and local
 * $refs. Any other keyword (formats, lengths, patterns, …) is taken as satisfied.
 */
export function matchesSchema(schema: Json, value: Json, root: Json = schema, depth = 0): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema) || depth > 32) return true;
  const sub = (s: Json, v: Json) => matchesSchema(s, v, root, depth + 1);

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, root);
    if (target !== undefined && !sub(target, value)) return false;
  }
  if (typeof schema.type === 'string' && !hasType(schema.type, value)) return false;
  if (Array.isArray(schema.type) && !schema.type.some((t) => typeof t !== 'string' || hasType(t, value))) return false;
  if ('const' in schema && !deepEqual(schema.const, value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) return false;

  if (isObject(value)) {
    if (Array.isArray(schema.required) && !schema.required.every((k) => typeof k !== 'string' || value[k] !== undefined)) {
      return false;
    }
    if (isObject(schema.properties)) {
      for (const [key, propSchema] of Object.entries(schema.properties)) {
        if (value[key] !== undefined && !sub(propSchema, value[key])) return false;
      }
    }
  }
  if (Array.isArray(value) && (isObject(schema.items) || typeof schema.items === 'boolean')) {
    if (!value.every((item) => sub(schema.items, item))) return false;
  }

  if (Array.isArray(schema.allOf) && !schema.allOf.every((s) => sub(s, value))) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => sub(s, value))) return false;
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter((s) => sub(s, value)).length !== 1) return false;
  if ('not' in schema && sub(schema.not, value)) return false;
  if ('if' in schema) {
    const branch = sub(schema.if, value) ? schema.then : schema.else;
    if (branch !== undefined && !sub(branch, value)) return false;
  }
  return true;
}

/** A validator for RJSF forms: no errors ever, and schema matching for RJSF's branch choices. */
export const schemaValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema) => matchesSchema(schema, formData, rootSchema),
  rawValidation: () => ({ errors: [] }),
};
