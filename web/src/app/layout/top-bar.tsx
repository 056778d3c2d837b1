import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { DisclosureMenu } from '@/components/disclosure-menu';
import { AgentLogo } from '@/features/site/components/agent-logo';
import { PresentedByButton } from '@/features/site/components/presented-by-button';
import { DEFAULT_PRODUCT_NAME } from '@/lib/title';
import type { AuthState, Site } from '@/types/api';
import { DASHBOARD_HOME } from '../guards';
import { LanguageSwitch } from './language-switch';

// Logged-in users' menus and modals are loaded on demand: the landing page's bundle stays small.
const UserMenus = lazy(() => import('../account-ui').then((m) => ({ default: m.UserMenus })));

interface TopBarProps {
  site: Site | null;
  auth: AuthState | null;
  showPresentedBy: boolean;
  onLogout: () => void;
  /** After the language changed: the server's texts are asked again. */
  onLanguageSwitched: () => void;
}

/**
 * The top bar of spec part 1, 2.3: logo and Home (dashboard-home when logged in), the Misc menu
 * (playground), then Agent Login for visitors, or for logged-in users the Admin menu (admins),
 * Share your custom site and the name dropdown (`user-menus.tsx`).
 */
export function TopBar({ site, auth, showPresentedBy, onLogout, onLanguageSwitched }: TopBarProps) {
  const { i18n } = useLingui();
  const product = site?.product_name || DEFAULT_PRODUCT_NAME;
  const isAuthorized = auth?.is_authorized ?? false;
  const home = isAuthorized ? DASHBOARD_HOME : '/';
  const productMark = <span className="ef-topbar__product">{product}</span>;
  return (
    <header className="ef-topbar">
      <div className="ds-l-container ef-topbar__inner">
        <Link to={home} className="ef-topbar__logo">
          {site?.agent ? <AgentLogo agent={site.agent} className="ef-topbar__logo-img" fallback={productMark} /> : productMark}
        </Link>
        <nav aria-label={i18n._('Main')} className="ef-topbar__nav">
          <ul className="ef-topbar__links">
            {!isAuthorized && <LanguageSwitch onSwitched={onLanguageSwitched} />}
            <li>
              <Link to={home} className="ef-topbar__link">
                <Trans id="Home" />
              </Link>
            </li>
            {site?.playground && auth?.works_on_rules && (
              <li>
                <DisclosureMenu label="Misc">
                  {(close) => (
                    <li>
                      <Link to="/playground" className="ef-menu__link" onClick={close}>
                        Playground
                      </Link>
                    </li>
                  )}
                </DisclosureMenu>
              </li>
            )}
            {auth && isAuthorized ? (
              <Suspense fallback={null}>
                <UserMenus site={site} auth={auth} onLogout={onLogout} />
              </Suspense>
            ) : (
              <li>
                <Link className="ds-c-button ds-c-button--solid ds-c-button--small" to="/login">
                  <Trans id="Agent Login" />
                </Link>
              </li>
            )}
          </ul>
        </nav>
      </div>
      {showPresentedBy && site?.agent && (
        <div className="ef-topbar__presented">
          <div className="ds-l-container">
            <PresentedByButton agent={site.agent} />
          </div>
        </div>
      )}
    </header>
  );
}
