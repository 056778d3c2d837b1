import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useMatches, useNavigate, useRevalidator } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { Alert } from '@cmsgov/design-system';
import { sendPageView } from '@/features/analytics/api/send-page-view';
import { logout } from '@/features/auth/api/logout';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { routeTemplate } from '@/lib/route-template';
import { isRouteHandle, isStepRouteData } from '../route-handle';
import { useDocumentTitle } from '../use-document-title';
import { ActingAsBar } from './acting-as-bar';
import { SessionTimeout } from './session-timeout';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';

const LOGOUT_TOAST_MS = 3000;
const LOGGED_OUT = /*i18n*/ { id: 'You were logged out successfully.' };

export function AppShell() {
  const { i18n } = useLingui();
  const site = useSiteStore((s) => s.site);
  const auth = useAuthStore((s) => s.auth);
  const matches = useMatches();
  const handle = matches
    .map((m) => m.handle)
    .filter(isRouteHandle)
    .at(-1);
  const leaf = matches.at(-1);
  // A wizard step's page view names its route (`/census`), not the router's `/:step`.
  const template = isStepRouteData(leaf?.data) ? leaf.data.step.route : leaf ? routeTemplate(leaf.pathname, leaf.params) : null;
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // A new language: the routes' data again (a step's flow and title come in the language).
  const revalidator = useRevalidator();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  const [toast, setToast] = useState<typeof LOGGED_OUT | null>(null);

  // A wizard step's title is its step's, from the flow the step route read.
  const title = isStepRouteData(leaf?.data) ? leaf.data.step.title : handle?.title.id ? i18n._(handle.title) : undefined;
  useDocumentTitle(title, site?.product_name);

  // Navigation scrolls to the top and moves focus to the new page's content.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    mainRef.current?.focus();
  }, [pathname]);

  // A page-view event after each navigation (spec part 1, 2.2): the route's template only. It waits
  // for the auth state, whose CSRF token the call carries (sent earlier it would be refused), and is
  // sent once per navigation (a token replaced by login does not count the page again).
  const csrfToken = auth?.csrf_token;
  const viewed = useRef<string | null>(null);
  useEffect(() => {
    if (!template || !csrfToken || viewed.current === pathname) return;
    viewed.current = pathname;
    void sendPageView(template).catch(() => undefined);
  }, [template, pathname, csrfToken]);

  useEffect(() => {
    if (!toast) return;
    const id = window.setTimeout(() => setToast(null), LOGOUT_TOAST_MS);
    return () => window.clearTimeout(id);
  }, [toast]);

  const onLogout = () => {
    void (async () => {
      await logout().catch(() => undefined);
      await useAuthStore
        .getState()
        .load()
        .catch(() => useAuthStore.getState().markLoggedOut());
      await useSiteStore.getState().load();
      setToast(LOGGED_OUT);
      navigate('/');
    })();
  };

  const layout = handle?.layout ?? 'full';
  return (
    <div className="ef-app">
      <a className="ds-c-skip-nav" href="#main">
        <Trans id="Skip to main content" />
      </a>
      <ActingAsBar auth={auth} />
      <TopBar site={site} auth={auth} showPresentedBy={!handle?.hidePresentedBy} onLogout={onLogout} onLanguageSwitched={() => void revalidator.revalidate()} />
      <main id="main" ref={mainRef} tabIndex={-1} className={`ef-main ef-main--${layout}`}>
        {(site?.demo || toast) && (
          <div className="ds-l-container">
            {site?.demo && (
              <Alert heading={i18n._('This is a demonstration site')} headingLevel="2" className="ds-u-margin-y--2">
                <Trans id="Applications submitted on this site will not be processed." />
              </Alert>
            )}
            {toast && (
              <Alert variation="success" role="status" className="ds-u-margin-y--2">
                {i18n._(toast)}
              </Alert>
            )}
          </div>
        )}
        {layout === 'full' || layout === 'fluid' ? (
          <div className={layout === 'fluid' ? 'ds-l-container ef-container--fluid' : 'ds-l-container'}>
            <Outlet />
          </div>
        ) : (
          <Outlet />
        )}
      </main>
      <SiteFooter site={site} />
      <SessionTimeout />
    </div>
  );
}
