import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// bulletproof-react: imports flow shared (components, lib) -> features -> app.
// A feature never imports another feature; src/app composes them.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message: 'imports flow lib/components -> features -> app' }] }],
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'src/types/openapi.gen.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // Focus moves in a layout effect, right after the render: Preact (vite.config.ts) runs a plain
      // effect after the next frame, when the person's next key may already have gone elsewhere.
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.name='useEffect'] CallExpression[callee.property.name='focus']",
        message: 'move focus in useLayoutEffect: useEffect runs after the next frame on Preact (web/README.md)',
      }],
    },
  },
  {
    files: ['src/lib/**', 'src/components/**'],
    rules: restrict(['@/features/*', '@/app/*', '../features/*', '../app/*']),
  },
  ...features.map((f) => ({
    files: [`src/features/${f}/**`],
    rules: restrict(['@/app/*', '@/features/*', `!@/features/${f}`, `!@/features/${f}/**`]),
  })),
  {
    files: ['*.config.ts', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ['*.js'], extends: [js.configs.recommended], languageOptions: { globals: { ...globals.node } } },
);
