// Testing Library with the app's providers: every rendered tree has the language catalogs
// (English unless a test activates another). Tests import from here, not from
// '@testing-library/react'.
import type { ReactNode } from 'react';
import { render as renderBase, renderHook as renderHookBase, type RenderOptions } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { messages as shell } from '@/locales/shell/en.po';
import { messages as wizard } from '@/locales/wizard/en.po';

export * from '@testing-library/react';

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
