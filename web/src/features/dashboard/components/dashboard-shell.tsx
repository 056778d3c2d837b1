import { Alert } from '@cmsgov/design-system';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { formatPhone, telHref } from '@/lib/phone';
import { useShellStore } from '../stores/shell-store';
import { useDashboardActions } from './dashboard-actions';
import { DASHBOARD_ERROR } from './texts';
import './dashboard.css';

const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer' } as const;

function NewTabHint() {
  return <span className="ds-u-visibility--screen-reader"> (opens in a new tab)</span>;
}

const quickClass = ({ isActive }: { isActive: boolean }) => `ef-dash-quicknav__link${isActive ? ' ef-dash-quicknav__link--active' : ''}`;
const navClass = ({ isActive }: { isActive: boolean }) => `ef-dash-nav__link${isActive ? ' ef-dash-nav__link--active' : ''}`;

/**
 * The agent dashboard shell (spec part 2, Agent dashboard shell): the left navigation (Off
 * Marketplace: Continue Quote, Start Quote, Quoting, Submissions; On Marketplace links; the
 * Medicare quote link; the account manager's card) beside the page.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  const shell = useShellStore((s) => s.shell);
  const error = useShellStore((s) => s.error);
  const { continuePath, startQuote } = useDashboardActions();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState(false);

  useEffect(() => {
    void useShellStore.getState().load();
  }, []);

  const onStart = () => {
    setStarting(true);
    setStartError(false);
    startQuote().catch(() => {
      setStartError(true);
      setStarting(false);
    });
  };

  const manager = shell?.account_manager ?? null;
  const links = shell?.marketplace_links ?? [];
  return (
    <div className="ef-dash">
      <aside className="ef-dash__side">
        <nav aria-label="Dashboard" className="ef-dash-nav" id="ef-dash-nav" tabIndex={-1}>
          <h2 className="ef-dash-nav__heading">Off Marketplace</h2>
          <ul className="ef-dash-nav__list">
            {shell?.has_application && (
              <li>
                <Link className="ef-dash-nav__link" to={continuePath ?? '/'}>
                  Continue Quote
                </Link>
              </li>
            )}
            <li>
              <button type="button" className="ef-dash-nav__link ef-dash-nav__button" onClick={onStart} disabled={starting}>
                Start Quote
              </button>
            </li>
            <li>
              <NavLink className={navClass} to="/dashboard/quoting">
                Quoting
              </NavLink>
            </li>
            <li>
              <NavLink className={navClass} to="/dashboard/enrolled">
                Submissions
              </NavLink>
            </li>
            <li>
              <NavLink className={navClass} to="/dashboard/renewals">
                Renewals
              </NavLink>
            </li>
          </ul>
          {links.length > 0 && (
            <>
              <h2 className="ef-dash-nav__heading">On Marketplace</h2>
              <ul className="ef-dash-nav__list">
                {links.map((l) => (
                  <li key={`${l.title}|${l.url}`}>
                    <a className="ef-dash-nav__link" href={l.url} {...NEW_TAB}>
                      {l.title}
                      <NewTabHint />
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          {shell?.display_medicare && shell.medicare_url && (
            <>
              <h2 className="ef-dash-nav__heading">Medicare</h2>
              <ul className="ef-dash-nav__list">
                <li>
                  <a className="ef-dash-nav__link" href={shell.medicare_url} {...NEW_TAB}>
                    Medicare Quote
                    <NewTabHint />
                  </a>
                </li>
              </ul>
            </>
          )}
        </nav>
        {manager && (
          <section className="ds-c-card ef-dash-manager" aria-labelledby="ef-dash-manager-heading">
            <h2 id="ef-dash-manager-heading" className="ef-dash-nav__heading">
              Your Account Manager
            </h2>
            <p className="ds-u-margin-y--1 ds-u-font-weight--bold">{manager.name}</p>
            {manager.email && (
              <p className="ds-u-margin-y--1">
                <a href={`mailto:${manager.email}`}>{manager.email}</a>
              </p>
            )}
            {manager.phone && (
              <p className="ds-u-margin-y--1">
                <a href={telHref(manager.phone)}>{formatPhone(manager.phone)}</a>
              </p>
            )}
          </section>
        )}
      </aside>
      <div className="ef-dash__content">
        {/* On a phone the full navigation follows the page: the lists are one tap away at the top. */}
        <nav aria-label="Dashboard pages" className="ef-dash-quicknav">
          <NavLink className={quickClass} to="/dashboard/quoting">
            Quoting
          </NavLink>
          <NavLink className={quickClass} to="/dashboard/enrolled">
            Submissions
          </NavLink>
          <NavLink className={quickClass} to="/dashboard/renewals">
            Renewals
          </NavLink>
          <a className="ef-dash-quicknav__link" href="#ef-dash-nav">
            More
          </a>
        </nav>
        {(error || startError) && (
          <Alert variation="error" className="ds-u-margin-bottom--2">
            {DASHBOARD_ERROR}
          </Alert>
        )}
        {children}
      </div>
    </div>
  );
}
