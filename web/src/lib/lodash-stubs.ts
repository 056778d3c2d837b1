/**
 * Stand in for `lodash/get` and `lodash/uniqueId` (aliased in vite.config.ts), the two lodash
 * functions the CMS Design System imports (its translations and its ids): lodash's own modules bring
 * its path parser, memoizer and type checks into the landing page's script, about 2 kB gzipped.
 * Same behaviour as lodash 4's (the path grammar below is lodash's): tests compare them.
 */

const reIsDeepProp = /\.|\[(?:[^[\]]*|(["'])(?:(?!\1)[^\\]|\\.)*?\1)\]/;
const reIsPlainProp = /^\w*$/;
const rePropName = /[^.[\]]+|\[(?:(-?\d+(?:\.\d+)?)|(["'])((?:(?!\2)[^\\]|\\.)*?)\2)\]|(?=(?:\.|\[\])(?:\.|\[\]|$))/g;
const reEscapeChar = /\\(\\)?/g;

type Key = string | number | symbol;

/** Whether `path` names one property of `object` as it is (no path to parse). */
function isKey(path: unknown, object: unknown): boolean {
  if (Array.isArray(path)) return false;
  if (path == null || typeof path === 'number' || typeof path === 'symbol' || typeof path === 'boolean') return true;
  const p = String(path);
  return reIsPlainProp.test(p) || !reIsDeepProp.test(p) || (object != null && p in Object(object));
}

/** `a.b[0]["c.d"]` as its keys. */
function stringToPath(path: string): string[] {
  const keys: string[] = [];
  if (path.charCodeAt(0) === 46 /* . */) keys.push('');
  path.replace(rePropName, (match: string, number?: string, quote?: string, quoted?: string) => {
    keys.push(quote ? (quoted ?? '').replace(reEscapeChar, '$1') : (number ?? match));
    return '';
  });
  return keys;
}

function toKey(value: unknown): Key {
  if (typeof value === 'string' || typeof value === 'symbol') return value;
  const key = `${String(value)}`;
  return key === '0' && 1 / (value as number) === -Infinity ? '-0' : key;
}

/** The value at `path` of `object`, or `defaultValue` when it is undefined. */
export function get(object: unknown, path: unknown, defaultValue?: unknown): unknown {
  if (object == null) return defaultValue;
  const keys: unknown[] = isKey(path, object) ? [path] : Array.isArray(path) ? path : stringToPath(String(path));
  let value: unknown = object;
  let index = 0;
  while (value != null && index < keys.length) {
    value = (value as Record<Key, unknown>)[toKey(keys[index++])];
  }
  const result = index > 0 && index === keys.length ? value : undefined;
  return result === undefined ? defaultValue : result;
}

let idCounter = 0;

/** A page-unique id: `prefix` followed by a counter. */
export function uniqueId(prefix?: unknown): string {
  idCounter += 1;
  return `${prefix == null ? '' : String(prefix)}${idCounter}`;
}
