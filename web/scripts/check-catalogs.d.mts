// Types of check-catalogs.mjs for the unit test that imports it (src/i18n/check-catalogs.test.ts).
export function marks(message: string): string[];
export function problems(file: string, text: string, language: string): string[];
