// lodash's own modules, read by src/lib/lodash-stubs.test.ts to compare the stand-ins with them.
declare module 'lodash/get.js' {
  export default function get(object: unknown, path: unknown, defaultValue?: unknown): unknown;
}
declare module 'lodash/uniqueId.js' {
  export default function uniqueId(prefix?: string): string;
}
