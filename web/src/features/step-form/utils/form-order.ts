// The order the fields appear in on the page: the schema's properties as `ui:order` arranges them
// (its `*` standing for the ones it does not name), level by level; array items by their index.
// The error summary lists the errors in this order (the server's map and the schema's properties
// may be in any order, e.g. alphabetical).

import { isRecord, type FieldPath } from './paths';

function ordered(props: string[], uiOrder: unknown): string[] {
  if (!Array.isArray(uiOrder)) return props;
  const listed = uiOrder.filter((p): p is string => typeof p === 'string' && (p === '*' || props.includes(p)));
  const named = listed.filter((p) => p !== '*');
  const rest = props.filter((p) => !named.includes(p));
  const star = listed.indexOf('*');
  return star < 0 ? [...named, ...rest] : [...named.slice(0, star), ...rest, ...named.slice(star)];
}

/** The field's place on the page, for comparing with `compareRanks`. */
export function formRank(schema: unknown, ui: unknown, path: FieldPath): number[] {
  const rank: number[] = [];
  let s = schema;
  let u = ui;
  for (const seg of path) {
    if (typeof seg === 'number') {
      rank.push(seg);
      s = isRecord(s) ? s.items : undefined;
      u = isRecord(u) ? u.items : undefined;
      continue;
    }
    const props = isRecord(s) && isRecord(s.properties) ? Object.keys(s.properties) : [];
    const order = ordered(props, isRecord(u) ? u['ui:order'] : undefined);
    const at = order.indexOf(seg);
    rank.push(at < 0 ? order.length : at);
    s = isRecord(s) && isRecord(s.properties) ? s.properties[seg] : undefined;
    u = isRecord(u) ? u[seg] : undefined;
  }
  return rank;
}

export function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** `items` sorted in the order of their fields on the page. */
export function inFormOrder<T extends { path: FieldPath }>(items: T[], schema: unknown, ui: unknown): T[] {
  const ranks = new Map(items.map((item) => [item, formRank(schema, ui, item.path)]));
  return [...items].sort((a, b) => compareRanks(ranks.get(a) ?? [], ranks.get(b) ?? []));
}
