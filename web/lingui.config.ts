import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';
import { LANGUAGES, PSEUDO, SOURCE_LANGUAGE } from './src/i18n/languages';

/**
 * The consumer's texts, PO catalogs per language (src/locales/<part>/<language>.po). The message id is
 * the English text, written in the code (`<Trans id="Get a Quote" />`, `i18n._('Hello {name}', { name })`);
 * `npm run i18n:extract` writes the catalogs from the code, and `npm run i18n:check` (in `make test`)
 * fails on a message a language has not translated. `pseudo` is made from English at build time
 * (every text accented), so a test can see text that went round the catalogs.
 */
/** The wizard's code: its texts load with the first step (the landing page does without them). */
const WIZARD = ['step-form', 'plans', 'progress', 'resume'].map((f) => `<rootDir>/src/features/${f}`);
/** The customer's renewal page: its texts load with it (a renewal link's visitor alone sees it). */
const RENEWAL = '<rootDir>/src/features/renewal';

export default defineConfig({
  sourceLocale: SOURCE_LANGUAGE,
  locales: [...LANGUAGES.map((l) => l.code), PSEUDO],
  pseudoLocale: PSEUDO,
  fallbackLocales: false,
  // Three catalogs per language, each loaded with its pages (the renewal page's with it): the shell's (landing, top bar, dialogs)
  // with the first script, the wizard's (forms, plans, progress, resume) with the first step
  // (src/i18n/index.ts `loadPart`; web/scripts/bundle-budget.mjs).
  catalogs: [
    { path: '<rootDir>/src/locales/shell/{locale}', include: ['<rootDir>/src'], exclude: [...[...WIZARD, RENEWAL].map((f) => `${f}/**`), '**/*.test.*'] },
    { path: '<rootDir>/src/locales/wizard/{locale}', include: WIZARD, exclude: ['**/*.test.*'] },
    { path: '<rootDir>/src/locales/renewal/{locale}', include: [RENEWAL], exclude: ['**/*.test.*'] },
  ],
  // Each message names the files that use it, without line numbers: moving code does not change the catalogs.
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
