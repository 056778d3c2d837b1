import { defineConfig } from '@lingui/cli';
import { LANGUAGES, PSEUDO, SOURCE_LANGUAGE } from './src/i18n/languages';

/**
 * The consumer's texts, one PO catalog per language (src/locales/<language>.po). The message id is
 * the English text, written in the code (`<Trans id="Get a Quote" />`, `i18n._('Hello {name}', { name })`);
 * `npm run i18n:extract` writes the catalogs from the code, and `npm run i18n:check` (in `make test`)
 * fails on a message a language has not translated. `pseudo` is made from English at build time
 * (every text accented), so a test can see text that went round the catalogs.
 */
export default defineConfig({
  sourceLocale: SOURCE_LANGUAGE,
  locales: [...LANGUAGES.map((l) => l.code), PSEUDO],
  pseudoLocale: PSEUDO,
  fallbackLocales: false,
  catalogs: [{ path: '<rootDir>/src/locales/{locale}', include: ['<rootDir>/src'], exclude: ['**/*.test.*'] }],
  format: 'po',
  orderBy: 'messageId',
});
