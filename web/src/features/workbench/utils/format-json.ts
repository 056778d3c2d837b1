/** Pretty JSON for display; `undefined` (absent) reads as null. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}
