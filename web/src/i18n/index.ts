import { i18n, type Messages } from '@lingui/core';
import { setLanguage as setDesignSystemLanguage } from '@cmsgov/design-system';
import { messages as english } from '@/locales/en.po';
import { isLanguage, LANGUAGES, preferredLanguage, PSEUDO, SOURCE_LANGUAGE, type Language } from './languages';

export { i18n };
export { LANGUAGES, type Language } from './languages';

/**
 * The chosen language is kept per browser in a cookie, so that the server answers in it too (the
 * form and rule texts, the PDFs, the e-mails): `GET /api/start` and `/api/site` are asked by
 * index.html's preloads, which send cookies but no header of the app's.
 */
export const LANGUAGE_COOKIE = 'enrollflow_lang';
const ONE_YEAR_S = 365 * 24 * 60 * 60;

type Catalog = { messages: Messages };
/** English comes with the page; the others load when chosen. */
const catalogs: Record<string, () => Promise<Catalog>> = {
  [SOURCE_LANGUAGE]: () => Promise.resolve({ messages: english }),
  es: () => import('@/locales/es.po'),
  [PSEUDO]: () => import('@/locales/pseudo.po'),
};

/** The cookie's language, when it names one the app speaks (or the tests' pseudo-language). */
export function storedLanguage(cookie: string): string | null {
  for (const part of cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE && value && (isLanguage(value) || value === PSEUDO)) return value;
  }
  return null;
}

/** The language of this page load: the one chosen before in this browser, else the browser's preference. */
export function initialLanguage(): string {
  return storedLanguage(document.cookie) ?? preferredLanguage(navigator.languages ?? [navigator.language]);
}

/** The BCP 47 tag of a language, for `<html lang>` and number and date formats. */
export function languageTag(code: string): string {
  return code === PSEUDO ? 'en' : code;
}

/**
 * Makes `code` the page's language: its catalog, `<html lang>`, the design system's own texts
 * (its Spanish file), and the cookie the server reads.
 */
export async function activate(code: string): Promise<void> {
  const load = catalogs[code] ?? catalogs[SOURCE_LANGUAGE];
  const { messages } = await (load ?? (() => Promise.resolve({ messages: english })))();
  i18n.loadAndActivate({ locale: code, messages });
  document.documentElement.lang = languageTag(code);
  setDesignSystemLanguage(code === 'es' ? 'es' : 'en');
  document.cookie = `${LANGUAGE_COOKIE}=${code}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
}

/** The languages the switch offers besides the current one. */
export function otherLanguages(current: string): { code: Language; name: string }[] {
  return LANGUAGES.filter((l) => l.code !== current);
}
