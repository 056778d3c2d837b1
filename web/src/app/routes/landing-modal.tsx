// The modal an account route opens over the landing page, loaded on demand (with the account
// modals) so that the landing page's bundle does not carry it.
import { useCallback } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { LandingAccountModal, type LandingModalKind } from '@/features/auth/components/account-modals';
import { safeRedirectPath } from '@/features/auth/utils/redirect';
import type { LoggedIn } from '@/types/api';
import { adoptSession } from '../account-session';
import { DASHBOARD_HOME } from '../guards';

export type LandingModalName = LandingModalKind['kind'];

/**
 * Agent Login, Create Your Account or Reset Password (spec part 1, 2.1 and 2.5). Logging in loads
 * the branding of the returned subdomain and goes to `redirectFrom` when it is a path on this site
 * (never another site: no open redirect), else dashboard-home (4.2). Closing goes to the root.
 */
export function LandingModal({ modal, productName }: { modal: LandingModalName; productName: string }) {
  const navigate = useNavigate();
  const params = useParams();
  const { search } = useLocation();
  const target = safeRedirectPath(new URLSearchParams(search).get('redirectFrom'), DASHBOARD_HOME);

  const close = useCallback(() => void navigate('/'), [navigate]);
  const onLoggedIn = useCallback(
    async (result: LoggedIn) => {
      await adoptSession(result);
      await navigate(target, { replace: true });
    },
    [navigate, target],
  );

  const kind: LandingModalKind =
    modal === 'register'
      ? { kind: 'register', token: params.token ?? '' }
      : modal === 'reset'
        ? { kind: 'reset', email: params.email ?? '', token: params.token ?? '' }
        : { kind: 'login' };
  return <LandingAccountModal modal={kind} productName={productName} onLoggedIn={onLoggedIn} onClose={close} />;
}
