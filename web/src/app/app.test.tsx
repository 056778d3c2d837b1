import { cleanup, render, screen, waitFor } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/features/session/stores/session-store';
import type { Site } from '@/types/api';
import { testFlow } from '@/testing/flow';
import { App } from './index';

const site: Site = {
  product_name: 'Enrollflow',
  tool_owner: 'Great Lakes Tools LLC',
  general_agent: 'Mitten General Agency',
  subdomain: 'acme',
  supported: true,
  demo: false,
  playground: false,
  idle_seconds: 1800,
  agent: {
    agent_name: 'Alex Acme',
    agency_name: 'Acme Insurance Agency',
    address: '1 Main St<br>Lansing, MI 48933',
    email: 'alex@example.com',
    phone_number: '5175550142',
    fax_number: null,
    npn: '1234567',
    subdomains: ['acme'],
    display_bcbsm: true,
    display_ph: true,
    display_medicare: false,
    websiteUrl: null,
    logo_url: '/api/agent_logo/acme',
  },
};

const responses: Record<string, unknown> = {
  '/api/get-auth-state': {
    is_authorized: false,
    is_admin: false, works_on_rules: false,
    agent_subdomain: null,
    admin_subdomain: null,
    user_name: null,
    csrf_token: 't',
  },
  '/api/site': site,
  '/api/application/active': { application: null },
  '/api/flow': testFlow(),
};

describe('App', () => {
  beforeAll(() => {
    window.scrollTo = () => {};
  });

  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => new Response(JSON.stringify(responses[url] ?? {}), { status: url in responses ? 200 : 404 })),
    );
  });

  afterEach(cleanup);

  it('shows the landing page titled "Enrollflow | Home" and counts responses as activity', async () => {
    useSessionStore.setState({ lastAccess: 0 });
    window.history.pushState({}, '', '/');
    render(<App />);
    expect(await screen.findByRole('link', { name: 'Get a Quote' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Enrollflow | Home'));
    expect(screen.getByRole('contentinfo').textContent).toContain('provided by Great Lakes Tools LLC. General agent: Mitten General Agency.');
    expect(screen.queryByRole('button', { name: /Presented by/ })).toBeNull();
    expect(useSessionStore.getState().lastAccess).toBeGreaterThan(0);
  });

  it('redirects an unknown path to /404', async () => {
    window.history.pushState({}, '', '/nope');
    render(<App />);
    expect(await screen.findByText('Whoops! Looks like the page you requested cannot be found')).toBeTruthy();
    expect(window.location.pathname).toBe('/404');
  });

  it('sends a step other than whyApplying to the root without an application', async () => {
    window.history.pushState({}, '', '/census');
    render(<App />);
    expect(await screen.findByRole('link', { name: 'Get a Quote' })).toBeTruthy();
    expect(window.location.pathname).toBe('/');
  });

  it('shows whyApplying with the progress sidebar and the Presented by button', async () => {
    window.history.pushState({}, '', '/whyapplying');
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Why Are You Applying?' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Application progress' });
    expect(nav.querySelector('[aria-current="step"]')?.textContent).toBe('Get Started');
    expect(screen.getByRole('button', { name: /Presented by/ }).textContent).toContain('Alex Acme');
    await waitFor(() => expect(document.title).toBe('Enrollflow | Why Are You Applying?'));
  });

  it('sends a visitor who opens the playground (the workbench preview: analysts and admins) to log in, and shows no Misc menu', async () => {
    window.history.pushState({}, '', '/playground');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'), { timeout: 15_000 });
    expect(window.location.search).toBe(`?redirectFrom=${encodeURIComponent('/dashboard/rules?tab=preview')}`);
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
  }, 20_000);

  // Spec part 2, 2: "Manage Messages has no client-side guard." The server refuses non-admins (403),
  // which sends the browser to the site root.
  it('opens Manage Messages without a client-side guard', async () => {
    window.history.pushState({}, '', '/manageMessages');
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Manage Messages' }, { timeout: 15_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/manageMessages');
  }, 20_000);

  it('sends visitors from the dashboard to login with redirectFrom', async () => {
    window.history.pushState({}, '', '/dashboard/quoting');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(new URLSearchParams(window.location.search).get('redirectFrom')).toBe('/dashboard/quoting');
  });
});
