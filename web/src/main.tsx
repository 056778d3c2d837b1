import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import '@cmsgov/design-system/css/core-theme.css';
import '@cmsgov/design-system/css/index.css';
import './app/app.css';
import { App } from './app';
import { activate, i18n, initialLanguage } from './i18n';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root element');

// The page's language first (English is in the bundle; another language's catalog loads first).
void activate(initialLanguage()).then(() =>
  createRoot(root).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <App />
      </I18nProvider>
    </StrictMode>,
  ),
);
