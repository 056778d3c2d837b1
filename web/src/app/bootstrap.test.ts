import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Flow } from '@/lib/flow';
import type { Application, AuthState, Start } from '@/types/api';

vi.mock('./get-start', () => ({ getStart: vi.fn() }));

const auth = { is_authorized: false, csrf_token: 'token' } as AuthState;
const application = { applicationId: 'a1', lastStep: 2 } as Application;
const flow = { rules: 'r', steps: [] } as unknown as Flow;

/** A promise and the functions that settle it. */
function deferred<T>() {
  let settle: (value: T) => void = () => {};
  let refuse: (e: unknown) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    settle = resolve;
    refuse = reject;
  });
  return { promise, settle, refuse };
}

/** A fresh page load: bootstrap, the stores and the start call as new modules, the stores' loads watched. */
async function pageLoad() {
  vi.resetModules();
  const { getStart } = await import('./get-start');
  const { useAuthStore } = await import('@/features/auth/stores/auth-store');
  const { useSiteStore } = await import('@/features/site/stores/site-store');
  const { useApplicationStore } = await import('@/features/application/stores/application-store');
  const { useFlowStore } = await import('@/lib/flow');
  const { bootstrap } = await import('./bootstrap');
  const loads = {
    auth: vi.spyOn(useAuthStore.getState(), 'load').mockResolvedValue(auth),
    site: vi.spyOn(useSiteStore.getState(), 'load').mockResolvedValue(null),
    application: vi.spyOn(useApplicationStore.getState(), 'load').mockResolvedValue(application),
    flow: vi.spyOn(useFlowStore.getState(), 'load').mockResolvedValue(flow),
  };
  return { bootstrap, getStart: vi.mocked(getStart), loads, useAuthStore, useApplicationStore, useFlowStore };
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('bootstrap', () => {
  it('asks for the site beside one call that brings the session, its application and the flow', async () => {
    const page = await pageLoad();
    const start = deferred<Start>();
    page.getStart.mockReturnValue(start.promise);

    const done = page.bootstrap();
    expect(page.getStart).toHaveBeenCalledTimes(1);
    expect(page.loads.site).toHaveBeenCalledTimes(1);
    start.settle({ auth, application, flow });
    await done;
    expect(page.useAuthStore.getState().auth).toEqual(auth);
    expect(page.useApplicationStore.getState()).toMatchObject({ application, loaded: true });
    expect(page.useFlowStore.getState().flow).toEqual(flow);
    // Nothing asked twice.
    expect(page.loads.auth).not.toHaveBeenCalled();
    expect(page.loads.application).not.toHaveBeenCalled();
    expect(page.loads.flow).not.toHaveBeenCalled();
    // Once per page load.
    await page.bootstrap();
    expect(page.getStart).toHaveBeenCalledTimes(1);
    expect(page.loads.site).toHaveBeenCalledTimes(1);
  });

  it('asks one by one when that call is refused: the session first, then the application and the flow', async () => {
    const page = await pageLoad();
    const start = deferred<Start>();
    page.getStart.mockReturnValue(start.promise);
    const session = deferred<AuthState>();
    page.loads.auth.mockReturnValue(session.promise);

    const done = page.bootstrap();
    start.refuse(new Error('replaced'));
    await vi.waitFor(() => expect(page.loads.auth).toHaveBeenCalledTimes(1));
    // The application and the flow need the session cookie the auth state creates.
    expect(page.loads.application).not.toHaveBeenCalled();
    expect(page.loads.flow).not.toHaveBeenCalled();
    session.settle(auth);
    await done;
    expect(page.loads.application).toHaveBeenCalledTimes(1);
    expect(page.loads.flow).toHaveBeenCalledTimes(1);
    expect(page.loads.site).toHaveBeenCalledTimes(1);
  });
});
