/**
 * Stands in for `fast-uri` in the production build (aliased in vite.config.ts): RJSF's `$ref` lookup
 * (`@rjsf/utils/findSchemaDefinition`) calls its `resolve` and `equal` only for schemas that carry
 * an `$id` or a `$ref`, which the server's resolved forms never do, and the real one weighs about
 * 8 kB gzipped. The browser's own URL parser does the same two things (RFC 3986 resolution, and
 * comparison of the normalized forms).
 */

/** `ref` resolved against `base` (as it is when there is no base or either does not parse). */
export function resolve(base: string | undefined, ref: string): string {
  if (!base) return ref;
  try {
    return new URL(ref, base).href;
  } catch {
    return ref;
  }
}

/** Whether two URIs name the same resource once normalized (case of scheme and host, dot segments, default ports). */
export function equal(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

export default { resolve, equal };
