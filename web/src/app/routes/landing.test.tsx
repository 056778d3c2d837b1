import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import type { AuthState, Site } from '@/types/api';
import { App } from '../index';
import { polyfillDialogs } from '@/testing/kit';
import { testFlow } from '@/testing/flow';

// The account routes through the whole app: the modal over the landing page, then the login's way out.

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
    agent_name: 'Maria Alvarez',
    agency_name: 'Acme Insurance Agency',
    address: '1 Main St<br>Lansing, MI 48933',
    email: 'maria@example.com',
    phone_number: '5175550142',
    fax_number: null,
    npn: '17439021',
    subdomains: ['acme'],
    display_bcbsm: true,
    display_ph: true,
    display_medicare: false,
    websiteUrl: null,
    logo_url: '/api/agent_logo/acme',
  },
};

const visitor: AuthState = {
  is_authorized: false,
  is_admin: false, works_on_rules: false,
  agent_subdomain: null,
  admin_subdomain: null,
  impersonating: false,
  user_name: null,
  csrf_token: 'visitor-tok',
};

let loggedIn = false;
const posts: { url: string; csrf: string | undefined }[] = [];

function respond(url: string, init?: RequestInit): Response {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
  if (init?.method === 'POST') posts.push({ url, csrf: (init.headers as Record<string, string>)['X-CSRF-Token'] });
  switch (url) {
    case '/api/get-auth-state':
      return json(
        200,
        loggedIn
          ? { ...visitor, is_authorized: true, agent_subdomain: 'acme', user_name: 'Maria Alvarez', csrf_token: 'agent-tok' }
          : visitor,
      );
    case '/api/site':
      return json(200, site);
    case '/api/application/active':
      return json(200, { application: null });
    case '/api/flow':
      return json(200, testFlow());
    case '/api/agent_branding/acme':
      return json(200, site.agent);
    case '/api/login':
      loggedIn = true;
      return json(200, { subdomain: 'acme', csrf_token: 'agent-tok' });
    case '/api/get-user/used':
      return json(404, { error: 'Sorry, the link you used is no longer valid.' });
    default:
      return json(404, { error: 'No such API call.' });
  }
}

async function logIn() {
  const email = await screen.findByLabelText('Email', {}, { timeout: 10_000 });
  fireEvent.change(email, { target: { value: 'maria@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo-password-2024' } });
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('account routes', () => {
  beforeAll(() => {
    window.scrollTo = () => {};
    polyfillDialogs();
  });

  beforeEach(() => {
    loggedIn = false;
    posts.length = 0;
    useAuthStore.setState({ auth: null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => respond(url, init)),
    );
  });

  afterEach(cleanup);

  it('/login opens Agent Login over the landing page; logging in goes to dashboard-home', async () => {
    window.history.pushState({}, '', '/login');
    render(<App />);
    expect(await screen.findByRole('dialog', { name: 'Agent Login' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Individual plans tailored to your life' })).toBeTruthy();
    await logIn();
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard/home'), { timeout: 10_000 });
    expect(posts.filter((p) => p.url === '/api/login')).toEqual([{ url: '/api/login', csrf: 'visitor-tok' }]);
    // The new session's token is the one the app uses from now on.
    expect(useAuthStore.getState().auth?.csrf_token).toBe('agent-tok');
    expect(await screen.findByRole('button', { name: /Maria Alvarez/ }, { timeout: 10_000 })).toBeTruthy();
  });

  it('returns to redirectFrom after the login', async () => {
    window.history.pushState({}, '', '/dashboard/quoting');
    render(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    await logIn();
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard/quoting'));
  });

  it('never follows a redirectFrom to another site', async () => {
    window.history.pushState({}, '', `/login?redirectFrom=${encodeURIComponent('//evil.example/x')}`);
    render(<App />);
    await logIn();
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard/home'));
    expect(window.location.host).toBe('localhost:3000');
  });

  it('/register/token/{token}/ with a used token says the link is no longer valid', async () => {
    window.history.pushState({}, '', '/register/token/used/');
    render(<App />);
    expect(await screen.findByRole('dialog', { name: 'Create Your Account' }, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('Sorry, the link you used is no longer valid.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
  });

  it('/reset-password/email/{email}/token/{token} opens Reset Password for that address', async () => {
    window.history.pushState({}, '', '/reset-password/email/maria%40example.com/token/abc');
    render(<App />);
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' }, { timeout: 10_000 });
    expect(within(dialog).getByText('maria@example.com')).toBeTruthy();
  });
});
