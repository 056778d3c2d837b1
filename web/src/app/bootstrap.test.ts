import { afterEach, describe, expect, it, vi } from 'vitest';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { useFlowStore } from '@/lib/flow';

afterEach(() => {
  vi.resetModules();
});

describe('bootstrap', () => {
  it('asks for the site beside the auth state, and for the application and the flow once the session exists', async () => {
    let sessionReady: () => void = () => {};
    const auth = vi.spyOn(useAuthStore.getState(), 'load').mockImplementation(
      () => new Promise((resolve) => (sessionReady = () => resolve(null as never))),
    );
    const site = vi.spyOn(useSiteStore.getState(), 'load').mockResolvedValue(null);
    const application = vi.spyOn(useApplicationStore.getState(), 'load').mockResolvedValue(null as never);
    const flow = vi.spyOn(useFlowStore.getState(), 'load').mockResolvedValue(null);
    const { bootstrap } = await import('./bootstrap');

    const done = bootstrap();
    expect(auth).toHaveBeenCalledTimes(1);
    expect(site).toHaveBeenCalledTimes(1);
    // The application and the flow need the session cookie the auth state creates.
    expect(application).not.toHaveBeenCalled();
    expect(flow).not.toHaveBeenCalled();

    sessionReady();
    await done;
    expect(application).toHaveBeenCalledTimes(1);
    expect(flow).toHaveBeenCalledTimes(1);
    // Once per page load.
    await bootstrap();
    expect(site).toHaveBeenCalledTimes(1);
  });
});
