import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { useFlowStore } from '@/lib/flow';

let started: Promise<void> | null = null;

/**
 * Loads, once per page load, what every route needs: the auth state first (it creates the
 * session cookie and hands out the CSRF token), then the site, the active application and the
 * wizard's flow (its steps' routes and labels; the step routes read it again as they open).
 * Failures leave the stores empty; the pages say what went wrong.
 */
export function bootstrap(): Promise<void> {
  started ??= (async () => {
    await useAuthStore
      .getState()
      .load()
      .catch(() => null);
    await Promise.all([
      useSiteStore.getState().load(),
      useApplicationStore
        .getState()
        .load()
        .catch(() => null),
      useFlowStore.getState().load(),
    ]);
  })();
  return started;
}
