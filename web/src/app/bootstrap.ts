import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { useFlowStore } from '@/lib/flow';
import { getStart } from './get-start';

let started: Promise<void> | null = null;

/**
 * Loads, once per page load, what every route needs, in two calls side by side that index.html
 * preloads while the script downloads: the site (it needs no session), and `GET /api/start`, the
 * auth state (it creates the session cookie and hands out the CSRF token) with the active
 * application and the wizard's flow (its steps' routes and labels; the step routes read it again
 * as they open). When that call is refused (a session replaced in another tab a moment ago), the
 * auth state is asked first, then the application and the flow, as before.
 * Failures leave the stores empty; the pages say what went wrong.
 */
export function bootstrap(): Promise<void> {
  started ??= (async () => {
    const site = useSiteStore.getState().load();
    const start = await getStart().catch(() => null);
    if (start) {
      useAuthStore.setState({ auth: start.auth });
      useApplicationStore.setState({ application: start.application ?? null, loaded: true });
      useFlowStore.setState({ flow: start.flow ?? null });
      await site;
      return;
    }
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
