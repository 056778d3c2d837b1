/**
 * The consumer's languages. A language is its catalog (src/locales/<code>.po, with the
 * form and rule texts in forms/locales/<code>.yaml on the server) and its line here; lingui.config.ts
 * reads this list. `name` is the language's own name, as the switch in the top bar shows it.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

/** The pseudo-language of the tests: English, bracketed and accented (lingui's pseudo-locale). */
export const PSEUDO = 'pseudo';

export const SOURCE_LANGUAGE: Language = 'en';

export function isLanguage(code: string | null | undefined): code is Language {
  return LANGUAGES.some((l) => l.code === code);
}

/**
 * The first of the browser's preferred languages (navigator.languages, the browser's Accept-Language)
 * that the app speaks, by its primary subtag (`es-MX` is `es`); English otherwise.
 */
export function preferredLanguage(preferences: readonly string[]): Language {
  for (const tag of preferences) {
    const primary = tag.split('-')[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return SOURCE_LANGUAGE;
}
