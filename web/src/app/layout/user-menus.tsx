// The top bar's entries for logged-in users, loaded on demand (visitors, and so the landing page's
// first load, never need them): the Admin menu, Share your custom site, the name dropdown, and the
// modals they open.
import { useCallback, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, useNavigate } from 'react-router';
import { Trans } from '@lingui/react';
import { AdminMenu } from '@/features/admin/components/admin-menu';
import { LoginAsAgentModal } from '@/features/admin/components/login-as-agent-modal';
import { verifySecondFactor } from '@/features/auth/api/second-factor';
import { AccountMenu } from '@/features/auth/components/account-menu';
import { ChangePasswordModal, DevicesModal, ShareSiteModal, TwoStepModal } from '@/features/auth/components/account-modals';
import { SecuritySettingsModal } from '@/features/admin/components/security-settings-modal';
import { siteAddress } from '@/features/auth/utils/site-address';
import type { AuthState, LoggedIn, Site } from '@/types/api';
import { adoptSession } from '../account-session';
import { DASHBOARD_HOME, RULES_WORKBENCH } from '../guards';
import { useSwitchBack } from '../use-switch-back';

type ModalName = 'change-password' | 'devices' | 'two-step' | 'security' | 'share' | 'login-as-agent';

export interface UserMenusProps {
  site: Site | null;
  auth: AuthState;
  onLogout: () => void;
}

/**
 * Spec part 1, 2.3 for logged-in users: the Admin dropdown for admins (Manage Messages, Log in as
 * an agent, Outbox), Share your custom site (the agent's first subdomain), and the name dropdown.
 * Impersonating and switching back follow 4.2: new session, the agent's (or the admin's) branding,
 * the application, then dashboard-home; failures are only logged (spec part 1, 8).
 */
export function UserMenus({ site, auth, onLogout }: UserMenusProps) {
  const navigate = useNavigate();
  const shareSubdomain = auth.agent_subdomain ?? site?.agent?.subdomains[0] ?? null;

  // A modal is mounted the first time it opens and then stays (closing it returns focus to its
  // opener); each opening starts it afresh (`generation`).
  const [open, setOpen] = useState<ModalName | null>(null);
  const [mounted, setMounted] = useState<ModalName[]>([]);
  const [generation, setGeneration] = useState(0);
  const show = (name: ModalName) => {
    setMounted((m) => (m.includes(name) ? m : [...m, name]));
    setGeneration((g) => g + 1);
    setOpen(name);
  };
  const close = useCallback(() => setOpen(null), []);

  // The login-as call and the branding must both succeed before going to dashboard-home.
  const onImpersonated = useCallback(
    async (result: LoggedIn) => {
      if (!(await adoptSession(result))) {
        console.error('Log in as an agent: the agent branding could not be loaded');
        return;
      }
      setOpen(null);
      await navigate(DASHBOARD_HOME);
    },
    [navigate],
  );
  const onSwitchBack = useSwitchBack();

  const modals = (
    <>
      {mounted.includes('change-password') && (
        <ChangePasswordModal
          key={`cp-${generation}`}
          isOpen={open === 'change-password'}
          onClose={close}
          impersonating={auth.impersonating ?? false}
        />
      )}
      {mounted.includes('devices') && (
        <DevicesModal key={`dv-${generation}`} isOpen={open === 'devices'} onClose={close} />
      )}
      {mounted.includes('two-step') && (
        <TwoStepModal key={`ts-${generation}`} isOpen={open === 'two-step'} onClose={close} />
      )}
      {mounted.includes('security') && (
        <SecuritySettingsModal
          key={`ss-${generation}`}
          isOpen={open === 'security'}
          onClose={close}
          verifyCode={(code) => verifySecondFactor({ code })}
        />
      )}
      {mounted.includes('share') && shareSubdomain && (
        <ShareSiteModal
          isOpen={open === 'share'}
          address={siteAddress(window.location, site?.subdomain ?? null, shareSubdomain)}
          onClose={close}
        />
      )}
      {mounted.includes('login-as-agent') && (
        <LoginAsAgentModal
          key={`la-${generation}`}
          isOpen={open === 'login-as-agent'}
          onClose={close}
          onImpersonated={onImpersonated}
          verifyCode={(code) => verifySecondFactor({ code })}
        />
      )}
    </>
  );

  return (
    <>
      {auth.is_admin && (
        <li>
          <AdminMenu onLoginAsAgent={() => show('login-as-agent')} onSecurity={() => show('security')} />
        </li>
      )}
      {auth.works_on_rules && !auth.is_admin && (
        <li>
          <Link to={RULES_WORKBENCH} className="ds-c-button ds-c-button--ghost ds-c-button--small">
            <Trans id="Rules workbench" />
          </Link>
        </li>
      )}
      {shareSubdomain && (
        <li>
          <button
            type="button"
            className="ds-c-button ds-c-button--ghost ds-c-button--small"
            aria-haspopup="dialog"
            onClick={() => show('share')}
          >
            <Trans id="Share your custom site" />
          </button>
        </li>
      )}
      <li>
        <AccountMenu
          userName={auth.user_name}
          impersonating={auth.impersonating ?? false}
          onChangePassword={() => show('change-password')}
          onDevices={() => show('devices')}
          onTwoStep={() => show('two-step')}
          onSwitchBack={onSwitchBack}
          onLogout={onLogout}
        />
        {createPortal(modals, document.body)}
      </li>
    </>
  );
}
