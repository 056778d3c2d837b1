import { Link } from 'react-router';
import { DisclosureMenu } from '@/components/disclosure-menu';
import { AccountMenu } from '@/features/auth/components/account-menu';
import { AgentLogo } from '@/features/site/components/agent-logo';
import { PresentedByButton } from '@/features/site/components/presented-by-button';
import { DEFAULT_PRODUCT_NAME } from '@/lib/title';
import type { AuthState, Site } from '@/types/api';
import { DASHBOARD_HOME } from '../guards';

interface TopBarProps {
  site: Site | null;
  auth: AuthState | null;
  showPresentedBy: boolean;
  onLogout: () => void;
}

export function TopBar({ site, auth, showPresentedBy, onLogout }: TopBarProps) {
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
        <nav aria-label="Main" className="ef-topbar__nav">
          <ul className="ef-topbar__links">
            <li>
              <Link to={home} className="ef-topbar__link">
                Home
              </Link>
            </li>
            {site?.playground && (
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
            <li>
              <AccountMenu isAuthorized={isAuthorized} userName={auth?.user_name ?? null} onLogout={onLogout} />
            </li>
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
