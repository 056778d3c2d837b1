// Field paths in form data: property names and item indexes (`['dependents', 2, 'birth_date']`).

export type FieldPath = readonly (string | number)[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a/b`, `dependents/0/birth_date` (a form file's field path) -> ['a', 'b'], ['dependents', 0, 'birth_date']. */
export function parseFieldPath(field: string): FieldPath {
  return field
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** An answer is given: not missing, not an empty text or list, not an unticked box (false). */
export function isAnswered(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null && value !== '' && value !== false;
}

export function getAt(data: unknown, path: FieldPath): unknown {
  let v: unknown = data;
  for (const seg of path) {
    if (Array.isArray(v) && typeof seg === 'number') v = v[seg];
    else if (isRecord(v)) v = v[String(seg)];
    else return undefined;
  }
  return v;
}

/** A copy of `data` with `value` at `path` (undefined removes the answer); containers are made as needed. */
export function setAt(data: unknown, path: FieldPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof head === 'number') {
    const list = Array.isArray(data) ? [...(data as unknown[])] : [];
    list[head] = setAt(list[head], rest, value);
    return list;
  }
  const obj: Record<string, unknown> = isRecord(data) ? { ...data } : {};
  const next = setAt(obj[head], rest, value);
  if (next === undefined) delete obj[head];
  else obj[head] = next;
  return obj;
}

/** The schema of the field at `path` (`properties` for names, `items` for indexes). */
export function schemaAt(schema: unknown, path: FieldPath): Record<string, unknown> | undefined {
  let s: unknown = schema;
  for (const seg of path) {
    if (!isRecord(s)) return undefined;
    s = typeof seg === 'number' ? s.items : isRecord(s.properties) ? s.properties[seg] : undefined;
  }
  return isRecord(s) ? s : undefined;
}

/** The UI schema (the server's, static) of the field at `path`; indexes go through `items`. */
export function uiAt(ui: unknown, path: FieldPath): Record<string, unknown> {
  let u: unknown = ui;
  for (const seg of path) {
    if (!isRecord(u)) return {};
    u = typeof seg === 'number' ? u.items : u[seg];
  }
  return isRecord(u) ? u : {};
}
