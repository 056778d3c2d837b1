import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { useFlowStore } from '@/lib/flow';

let started: Promise<void> | null = null;

/**
 * Loads, once per page load, what every route needs: the auth state (it creates the session
 * cookie and hands out the CSRF token) and the site side by side (the site needs no session;
 * index.html preloads both while the script downloads), then the active application and the
 * wizard's flow (its steps' routes and labels; the step routes read it again as they open).
 * Failures leave the stores empty; the pages say what went wrong.
 */
export function bootstrap(): Promise<void> {
  started ??= (async () => {
    const site = useSiteStore.getState().load();
    await useAuthStore
      .getState()
      .load()
      .catch(() => null);
    await Promise.all([
      site,
      useApplicationStore
        .getState()
        .load()
        .catch(() => null),
      useFlowStore.getState().load(),
    ]);
  })();
  return started;
}
