import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { switchBackToAdmin } from '@/features/auth/api/switch-back-to-admin';
import { adoptSession } from './account-session';
import { DASHBOARD_HOME } from './guards';

/**
 * Ends an admin's acting as an agent (spec part 1, 4.2): a new session for the admin, the admin's
 * branding, then dashboard-home. A failure is only logged (spec part 1, 8).
 */
export function useSwitchBack(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    void switchBackToAdmin()
      .then(adoptSession)
      .then(() => navigate(DASHBOARD_HOME))
      .catch((error: unknown) => console.error('Switch back to Admin failed', error));
  }, [navigate]);
}
