// Testing Library with the app's providers: every rendered tree has the language catalogs
// (English unless a test activates another). Tests import from here, not from
// '@testing-library/react'.
import type { ReactNode } from 'react';
import { fireEvent as fireEventBase, render as renderBase, renderHook as renderHookBase, type RenderOptions } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@/i18n';
import { messages as shell } from '@/locales/shell/en.po';
import { messages as wizard } from '@/locales/wizard/en.po';

export * from '@testing-library/react';

/** The fields a person types into: the browser fires `input` at each keystroke, `change` when the field is left. */
function typedInto(element: Element | Node | Document | Window): boolean {
  if (element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && !/^(checkbox|radio|file)$/.test(element.type);
}

/**
 * Testing Library's events, with `change` on a typed field sent as the browser sends it: `input`
 * first, then `change`. The app runs on Preact's React layer (vite.config.ts), which, like the DOM,
 * hears typing as `input`; a bare `change` event is what no browser sends for a keystroke.
 */
export const fireEvent: typeof fireEventBase = Object.assign(
  (...args: Parameters<typeof fireEventBase>) => fireEventBase(...args),
  fireEventBase,
  {
    change(element: Element | Node | Document | Window, init?: object) {
      if (!typedInto(element)) return fireEventBase.change(element, init);
      fireEventBase.input(element, init);
      return fireEventBase.change(element);
    },
  },
);

if (!i18n.locale) i18n.loadAndActivate({ locale: 'en', messages: { ...shell, ...wizard } });

function Providers({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

export function render(ui: Parameters<typeof renderBase>[0], options: Omit<RenderOptions, 'wrapper'> = {}) {
  return renderBase(ui, { wrapper: Providers, ...options });
}

export function renderHook<Result, Props>(hook: (props: Props) => Result, options: { initialProps?: Props } = {}) {
  return renderHookBase(hook, { wrapper: Providers, ...options });
}
