import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The English catalogs without the messages that are their own text. A message's id is its English
 * text, and Lingui answers a message missing from the catalog with its id, so only the messages with
 * placeholders, tags or plurals (or an ICU quote) need their compiled form in English: the landing
 * page's script carries a third of the shell's catalog (src/i18n/index.ts).
 */
export function englishIdsAreTexts(): Plugin {
  return {
    name: 'enrollflow:english-ids-are-texts',
    enforce: 'post',
    transform(code, id) {
      if (!/[/\\]locales[/\\][^/\\]+[/\\]en\.po$/.test(id)) return null;
      const m = /^(.*?JSON\.parse\()("(?:[^"\\]|\\.)*")(\).*)$/s.exec(code);
      if (!m?.[1] || !m[2] || m[3] === undefined) throw new Error(`${id}: not a compiled Lingui catalog`);
      const messages = JSON.parse(JSON.parse(m[2]) as string) as Record<string, unknown>;
      for (const [key, value] of Object.entries(messages)) {
        const plain = value === key || (Array.isArray(value) && value.length === 1 && value[0] === key);
        if (plain) delete messages[key];
      }
      return { code: `${m[1]}${JSON.stringify(JSON.stringify(messages))}${m[3]}`, map: null };
    },
  };
}

/** A file of this folder, by its path from here. */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** Top-level preact, whoever imports it (the CMS Design System nests its own preact 10 for its web components). */
const preact = (path: string) => here(`./node_modules/preact/${path}`);

/** React's modules answered by Preact's compatibility layer (see docs/performance.md, "What the browser downloads"). */
function preactForReact() {
  return [
    { find: /^react-dom\/test-utils$/, replacement: preact('test-utils/dist/testUtils.mjs') },
    { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
    { find: /^react-dom$/, replacement: preact('compat/dist/compat.mjs') },
    { find: /^react\/jsx-runtime$/, replacement: preact('compat/jsx-runtime.mjs') },
    { find: /^react\/jsx-dev-runtime$/, replacement: preact('compat/jsx-dev-runtime.mjs') },
    { find: /^react$/, replacement: preact('compat/dist/compat.mjs') },
  ];
}

// The Rust server (`enrollflow serve`) listens on 8080 and serves `dist/` plus `/api`.
// In development Vite serves the app and forwards API calls to it.
const backend = 'http://localhost:8080';

export default defineConfig(({ command }) => ({
  // The language catalogs (src/locales/*.po) are compiled when imported (lingui.config.ts).
  // The build fails on a language's missing translation (npm run i18n:check names them first).
  plugins: [lingui({ failOnMissing: true, failOnCompileError: true }), englishIdsAreTexts()],
  resolve: {
    alias: [
      ...preactForReact(),
      { find: '@', replacement: here('./src') },
      // RJSF's markdown renderer (unused by the forms, ~30 kB gzipped) is replaced by plain text.
      { find: /^markdown-to-jsx\/react$/, replacement: here('./src/lib/markdown-stub.tsx') },
      // The CMS Design System's two lodash functions, without lodash's path parser and memoizer (~2 kB gzipped).
      { find: /^lodash\/get$/, replacement: here('./src/lib/lodash-get-stub.ts') },
      { find: /^lodash\/uniqueId$/, replacement: here('./src/lib/lodash-unique-id-stub.ts') },
      // RJSF's URI resolver for `$id`/`$ref` (~8 kB gzipped) is the browser's URL parser, in the
      // build only: the dev server pre-bundles @rjsf/core with Ajv, which the build leaves out and
      // which parses URIs with fast-uri as soon as it loads.
      ...(command === 'build' ? [{ find: /^fast-uri$/, replacement: here('./src/lib/uri-stub.ts') }] : []),
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or data-URL modules: the server's CSP is `script-src 'self'`.
    assetsInlineLimit: 0,
    rolldownOptions: {
      onwarn(warning, warn) {
        // react-router ships "use client" directives, meaningless in a client-only bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        // react-router uses React 19's useOptimistic when the React it runs on has it, and Preact's
        // layer has not: it falls back to plain state.
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('useOptimistic')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/healthz': { target: backend, changeOrigin: false },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // The ES module builds of the libraries that import React, so that their imports meet the
    // aliases above: Node would pick the CommonJS builds, whose `require` finds React itself.
    alias: [
      { find: /^@testing-library\/react$/, replacement: here('./node_modules/@testing-library/react/dist/@testing-library/react.esm.js') },
      { find: /^react-router$/, replacement: here('./node_modules/react-router/dist/development/index.mjs') },
      { find: /^recharts$/, replacement: here('./node_modules/recharts/es6/index.js') },
      // It ships CommonJS only.
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: here('./src/test/with-selector.ts') },
    ],
    // Transformed by Vite rather than loaded by Node, so that the aliases apply inside them.
    server: { deps: { inline: [/@testing-library\/react/, /@rjsf\//, /@cmsgov\//, /react-router/, /@lingui\/react/, /zustand/, /recharts/, /react-redux/] } },
    unstubGlobals: true,
    // A test file per core: Vitest's default keeps one core for its own process (cores - 1), which
    // on a 2-core machine runs the files one at a time while that process mostly waits.
    maxWorkers: availableParallelism(),
    // Longer than the tests' own waits (`findBy…`/`waitFor` up to 10 s): with two files a core on a
    // slow machine, a whole login test ran past Vitest's default 5 s while each wait was within its own.
    testTimeout: 20_000,
  },
}));
