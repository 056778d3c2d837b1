import { useCallback } from 'react';
import { timeoutApplication } from '@/features/application/api/timeout-application';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { SessionTimeoutDialogs } from '@/features/session/components/session-timeout-dialogs';
import { useSessionTimeout } from '@/features/session/hooks/use-session-timeout';

/** Wires the idle-session timer to the application and auth stores (spec part 1, 4.1). */
export function SessionTimeout() {
  const hasWork = useCallback(
    () => Boolean(useApplicationStore.getState().application) || Boolean(useAuthStore.getState().auth?.is_authorized),
    [],
  );
  const onExpire = useCallback(async () => {
    useAuthStore.getState().markLoggedOut();
    await timeoutApplication();
  }, []);
  const onContinue = useCallback(async () => {
    await useAuthStore.getState().load();
    await useApplicationStore.getState().load();
  }, []);
  const { phase, continueSession } = useSessionTimeout({ hasWork, onExpire, onContinue });
  return (
    <SessionTimeoutDialogs
      phase={phase}
      onContinue={continueSession}
      onExpiredContinue={() => window.location.assign('/')}
    />
  );
}
