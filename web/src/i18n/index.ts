import { setupI18n, type Messages } from '@lingui/core';
import { setLanguage as setDesignSystemLanguage } from '@cmsgov/design-system';
import { messages as english } from '@/locales/shell/en.po';
import { isLanguage, LANGUAGES, preferredLanguage, PSEUDO, SOURCE_LANGUAGE, type Language } from './languages';

/**
 * The app's Lingui instance. A message missing from the catalog is its id: the English catalogs
 * leave out the messages that are their own text (`englishIdsAreTexts`, vite.config.ts), and
 * without `missing` Lingui logged "Uncompiled message detected!" with `console.warn` for each of
 * them at every call, some 300 ms of the medical plans page's drawing on a phone-speed CPU.
 */
export const i18n = setupI18n({ missing: (_locale, id) => id });
export { LANGUAGES, type Language } from './languages';

/**
 * The chosen language is kept per browser in a cookie, so that the server answers in it too (the
 * form and rule texts, the PDFs, the e-mails): `GET /api/start` and `/api/site` are asked by
 * index.html's preloads, which send cookies but no header of the app's.
 */
export const LANGUAGE_COOKIE = 'enrollflow_lang';
const ONE_YEAR_S = 365 * 24 * 60 * 60;

type Catalog = { messages: Messages };
/**
 * A part of the app's texts (lingui.config.ts): the shell's come with the first script, the
 * wizard's with the first step, the renewal page's with it (`loadPart`).
 */
export type Part = 'shell' | 'wizard' | 'renewal';
// English's shell catalog is in the first script (imported above), not a chunk of its own.
const catalogs = import.meta.glob<Catalog>(['../locales/*/*.po', '!../locales/shell/en.po']);
const loaded = new Map<string, Messages>([['shell/en', english]]);
const parts = new Set<Part>(['shell']);

async function messagesOf(part: Part, code: string): Promise<Messages> {
  const key = `${part}/${code}`;
  let messages = loaded.get(key);
  if (!messages) {
    const load = catalogs[`../locales/${key}.po`] ?? catalogs[`../locales/${part}/${SOURCE_LANGUAGE}.po`];
    messages = load ? (await load()).messages : {};
    loaded.set(key, messages);
  }
  return messages;
}

/** Before a part's pages draw (a lazy route's loading): its texts in the page's language. */
export async function loadPart(part: Part): Promise<void> {
  if (parts.has(part)) return;
  parts.add(part);
  const code = i18n.locale || SOURCE_LANGUAGE;
  i18n.load(code, await messagesOf(part, code));
}

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

/**
 * The Intl locale of a language, for numbers, money and dates in words: the language as written
 * in the United States (`es-US`: "$1,234.50", as US Spanish writes dollars).
 */
export function languageTag(code: string): string {
  const language = code === PSEUDO ? SOURCE_LANGUAGE : code;
  return language.includes('-') ? language : `${language}-US`;
}

/**
 * Makes `code` the page's language: its catalog, `<html lang>`, the design system's own texts
 * (its Spanish file), and the cookie the server reads.
 */
export async function activate(code: string): Promise<void> {
  const messages = await Promise.all([...parts].map((part) => messagesOf(part, code)));
  // The cookie first: what redraws in the new language asks the server in it.
  document.cookie = `${LANGUAGE_COOKIE}=${code}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
  document.documentElement.lang = code === PSEUDO ? SOURCE_LANGUAGE : code;
  setDesignSystemLanguage(code === 'es' ? 'es' : 'en');
  i18n.loadAndActivate({ locale: code, messages: Object.assign({}, ...messages) as Messages });
}

/** The languages the switch offers besides the current one. */
export function otherLanguages(current: string): { code: Language; name: string }[] {
  return LANGUAGES.filter((l) => l.code !== current);
}
