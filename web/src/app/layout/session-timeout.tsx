import { lazy, Suspense, useCallback } from 'react';
import { timeoutApplication } from '@/features/application/api/timeout-application';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSessionTimeout } from '@/features/session/hooks/use-session-timeout';
import { useSiteStore } from '@/features/site/stores/site-store';

// The dialogs (and the dialog component) load only when one is needed: the landing page stays small.
const SessionTimeoutDialogs = lazy(async () => ({
  default: (await import('@/features/session/components/session-timeout-dialogs')).SessionTimeoutDialogs,
}));

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
  const limitMs = useCallback(() => {
    const seconds = useSiteStore.getState().site?.idle_seconds;
    return seconds ? seconds * 1000 : undefined;
  }, []);
  const { phase, continueSession } = useSessionTimeout({ hasWork, onExpire, onContinue, limitMs });
  if (phase.kind === 'active') return null;
  return (
    <Suspense fallback={null}>
      <SessionTimeoutDialogs
        phase={phase}
        onContinue={continueSession}
        onExpiredContinue={() => window.location.assign('/')}
      />
    </Suspense>
  );
}
