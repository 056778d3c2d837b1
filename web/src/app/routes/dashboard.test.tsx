import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { Application } from '@/types/api';
import { useFlowStore } from '@/lib/flow';
import { testFlow } from '@/testing/flow';
import { DashboardLayout } from './dashboard';

const app = (extra: Partial<Application> = {}): Application => ({
  applicationId: 'app-1',
  lastStep: 3,
  effectiveDate: null,
  enrollmentPeriodTypeId: 1,
  medicalCarrierId: null,
  dentalCarrierId: null,
  visionCarrierId: null,
  medicalNetworkTypeId: null,
  skipMedical: false,
  skipDental: false,
  skipVision: false,
  skipOther: false,
  skipPcp: false,
  submissionTime: null,
  ...extra,
});

const calls: string[] = [];
beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      calls.push(url);
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (url === '/api/dashboard/shell') {
        return json({
          agent_full_name: 'Maria Alvarez',
          user_full_name: 'Maria Alvarez',
          display_medicare: false,
          medicare_url: null,
          marketplace_links: [],
          account_manager: null,
          subdomains: ['acme'],
          has_application: true,
        });
      }
      if (url === '/api/application/active/reset') return json({ application: null });
      if (url === '/api/flow') return json(testFlow());
      return new Response('{}', { status: 404 });
    }),
  );
  configureApiClient({ csrfToken: () => 't', redirectToRoot: () => {} });
  useApplicationStore.setState({ application: app(), loaded: true });
  useFlowStore.setState({ flow: testFlow({ lastStep: 3 }) });
});

afterEach(() => {
  cleanup();
  resetApiClient();
});

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <DashboardLayout />, children: [{ path: 'home', element: <p>home page</p> }] },
      { path: '/whyapplying', element: <p>why applying</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('DashboardLayout', () => {
  it("Continue Quote goes to the application's last step, as on the landing page", async () => {
    renderAt('/dashboard/home');
    expect(screen.getByText('home page')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Dashboard' });
    expect((await within(nav).findByRole('link', { name: 'Continue Quote' })).getAttribute('href')).toBe('/medical');
  });

  it('Start Quote drops the application (like Restart Quote) and opens Why Are You Applying?', async () => {
    const router = renderAt('/dashboard/home');
    fireEvent.click(screen.getByRole('button', { name: 'Start Quote' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/whyapplying'));
    expect(calls).toContain('/api/application/active/reset');
    expect(useApplicationStore.getState().application).toBeNull();
  });
});

describe('DashboardLayout for an admin', () => {
  it('makes no dashboard call (they answer 403) and points to Log in as an agent', async () => {
    const { useAuthStore } = await import('@/features/auth/stores/auth-store');
    useAuthStore.setState({
      auth: {
        is_authorized: true,
        is_admin: true, works_on_rules: true,
        agent_subdomain: 'demo',
        admin_subdomain: 'demo',
        impersonating: false,
        user_name: 'Ada Admin',
        csrf_token: 't',
      },
    });
    renderAt('/dashboard/home');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(screen.queryByText('home page')).toBeNull();
    expect(screen.getByRole('link', { name: 'Manage Messages' }).getAttribute('href')).toBe('/manageMessages');
    expect(calls).toEqual([]);
    useAuthStore.setState({ auth: null });
  });
});
