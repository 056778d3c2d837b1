import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import type { LoggedIn } from '@/types/api';

/**
 * A call replaced the session (login, impersonation, switch back; spec part 1, 4.2): take its CSRF
 * token and the new auth state, load the branding of the subdomain it returned (the host's site
 * when there is none) and the session's application. Resolves to whether the branding loaded.
 */
export async function adoptSession(result: LoggedIn): Promise<boolean> {
  // The new token at once (the cookie is new too), then who is logged in now.
  useAuthStore.setState(({ auth }) => (auth ? { auth: { ...auth, csrf_token: result.csrf_token } } : {}));
  await useAuthStore
    .getState()
    .load()
    .catch(() => null);
  const branded = result.subdomain
    ? (await useSiteStore.getState().loadBranding(result.subdomain)) !== null
    : (await useSiteStore.getState().load()) !== null;
  await useApplicationStore
    .getState()
    .load()
    .catch(() => null);
  return branded;
}
