import { createElement, type ReactNode } from 'react';

/**
 * Stands in for `markdown-to-jsx/react` (aliased in vite.config.ts): RJSF imports its `Markdown` for
 * `ui:enableMarkdownInDescription`/`InHelp` and a few messages, which no form uses, and the real
 * one weighs about 30 kB gzipped. The text is shown as it is.
 */
export function Markdown({ children }: { children?: ReactNode; options?: unknown }) {
  return createElement('span', null, children);
}

export default Markdown;
