import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMPERSONATING_NOTE } from '@/features/auth/components/change-password-modal';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { AuthState, Site } from '@/types/api';
import { TopBar } from './top-bar';
import { polyfillDialogs } from '@/testing/kit';

const site = (playground: boolean): Site => ({
  product_name: 'Enrollflow',
  tool_owner: 'Great Lakes Tools LLC',
  general_agent: 'Mitten General Agency',
  subdomain: 'acme',
  supported: true,
  demo: false,
  agent: null,
  playground,
  idle_seconds: 1800,
});

const anAdmin: AuthState = {
  is_authorized: true,
  is_admin: true, works_on_rules: true,
  agent_subdomain: 'demo',
  admin_subdomain: null,
  impersonating: false,
  user_name: 'Ada Admin',
  csrf_token: 'tok',
};

function renderTopBar(s: Site | null, auth: AuthState | null = anAdmin) {
  return render(
    <MemoryRouter>
      <TopBar site={s} auth={auth} showPresentedBy={false} onLogout={() => {}} onLanguageSwitched={() => {}} />
    </MemoryRouter>,
  );
}

describe('TopBar Misc menu', () => {
  afterEach(cleanup);

  it('is not there while the playground is off (the default)', () => {
    renderTopBar(site(false));
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Playground', hidden: true })).toBeNull();
  });

  it('is not there for anyone but an admin (the server answers only admins)', () => {
    renderTopBar(site(true), null);
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
    cleanup();
    renderTopBar(site(true), { ...anAdmin, is_admin: false, works_on_rules: false, user_name: 'Maria Alvarez' });
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
  });

  it('is not there before the site is known', () => {
    renderTopBar(null);
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
  });

  it('discloses a Playground link when the playground is on', () => {
    renderTopBar(site(true));
    const button = screen.getByRole('button', { name: /Misc/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Playground' })).toBeNull();

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const link = screen.getByRole('link', { name: 'Playground' });
    expect(link.getAttribute('href')).toBe('/playground');
    expect(document.getElementById(button.getAttribute('aria-controls') ?? '')?.contains(link)).toBe(true);

    fireEvent.keyDown(link, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});

const visitor: AuthState = {
  is_authorized: false,
  is_admin: false, works_on_rules: false,
  agent_subdomain: null,
  admin_subdomain: null,
  impersonating: false,
  user_name: null,
  csrf_token: 'tok',
};
const agent: AuthState = { ...visitor, is_authorized: true, agent_subdomain: 'acme', user_name: 'Maria Alvarez' };
const admin: AuthState = { ...visitor, is_authorized: true, is_admin: true, works_on_rules: true, agent_subdomain: 'demo', user_name: 'Ada Admin' };
const impersonating: AuthState = { ...agent, admin_subdomain: 'demo', impersonating: true };

function Where() {
  const { pathname } = useLocation();
  return <output aria-label="path">{pathname}</output>;
}

function renderAs(auth: AuthState, onLogout = () => {}) {
  return render(
    <MemoryRouter initialEntries={['/whyapplying']}>
      <TopBar site={site(false)} auth={auth} showPresentedBy={false} onLogout={onLogout} onLanguageSwitched={() => {}} />
      <Where />
    </MemoryRouter>,
  );
}

// The logged-in users' menus are loaded on demand (the first import is slow under vitest).
const menu = (name: string | RegExp) => screen.findByRole('button', { name }, { timeout: 10_000 });

describe('TopBar by role (spec part 1, 2.3)', () => {
  beforeAll(() => {
    polyfillDialogs();
  });

  afterEach(() => {
    cleanup();
    resetApiClient();
  });

  it('offers visitors Agent Login and Home to the root', () => {
    renderAs(visitor);
    expect(screen.getByRole('link', { name: 'Agent Login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: /Share your custom site/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Admin/ })).toBeNull();
  });

  it("gives agents Home to dashboard-home, Share your custom site and their name's dropdown", async () => {
    const onLogout = vi.fn();
    renderAs(agent, onLogout);
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/dashboard/home');
    const name = await menu(/Maria Alvarez/);
    expect(screen.queryByRole('link', { name: 'Agent Login' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Share your custom site' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Admin/ })).toBeNull();

    fireEvent.click(name);
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Switch back to Admin' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalled();
  });

  it('opens Change Password and Share your custom site as modals', async () => {
    renderAs(agent);
    fireEvent.click(await menu(/Maria Alvarez/));
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('dialog', { name: 'Change Password' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change Password' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Share your custom site' }));
    const field = (await screen.findByLabelText('Your site address')) as HTMLInputElement;
    // jsdom's page is http://localhost:3000/ (a bare host): the agent's site is a subdomain of it.
    expect(field.value).toBe(`${window.location.protocol}//acme.${window.location.host}/`);
  });

  it('gives admins the Admin menu: Manage Messages, Log in as an agent, Outbox', async () => {
    renderAs(admin);
    fireEvent.click(await menu(/^Admin/));
    expect(screen.getByRole('link', { name: 'Manage Messages' }).getAttribute('href')).toBe('/manageMessages');
    expect(screen.getByRole('link', { name: 'Outbox' }).getAttribute('href')).toBe('/admin/outbox');
    fireEvent.click(screen.getByRole('button', { name: 'Log in as an agent' }));
    expect(await screen.findByRole('dialog', { name: 'Log in as an agent' })).toBeTruthy();
  });

  // Spec part 1, 2.3: "a user-name dropdown (Change Password; Switch back to Admin, only while
  // impersonating; Log out)". While impersonating, Change Password changes the admin's own password
  // (docs/spec-decisions.md), and the dialog says so.
  it("keeps Change Password in the name menu while impersonating, for the admin's own password", async () => {
    renderAs(impersonating);
    fireEvent.click(await menu(/Maria Alvarez/));
    const items = screen.getAllByRole('button').map((b) => b.textContent);
    expect(items).toEqual(expect.arrayContaining(['Change Password', 'Switch back to Admin', 'Log out']));
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    expect(within(dialog).getByText(IMPERSONATING_NOTE)).toBeTruthy();
    expect(within(dialog).getByLabelText('Current password')).toBeTruthy();
  });

  it('says nothing of an admin in the Change Password dialog of an agent', async () => {
    renderAs(agent);
    fireEvent.click(await menu(/Maria Alvarez/));
    expect(screen.queryByRole('button', { name: 'Switch back to Admin' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    expect(within(dialog).queryByText(IMPERSONATING_NOTE)).toBeNull();
  });

  // Spec part 1, 2.3: "a user-name dropdown (Change Password; Switch back to Admin, only while
  // impersonating; Log out)": Change Password stays while impersonating.
  it('offers Change Password and Switch back to Admin while impersonating; switching back restores the admin', async () => {
    const calls: { url: string; csrf: string | undefined }[] = [];
    const bodies: Record<string, unknown> = {
      '/api/unFabricateAgent': { subdomain: 'demo', csrf_token: 'admin-tok' },
      '/api/get-auth-state': { ...admin, csrf_token: 'admin-tok' },
      '/api/agent_branding/demo': { agent_name: 'Demo Agent', subdomains: ['demo'] },
      '/api/application/active': { application: null },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, csrf: (init?.headers as Record<string, string>)['X-CSRF-Token'] });
        return new Response(JSON.stringify(bodies[url] ?? {}), { status: url in bodies ? 200 : 404 });
      }),
    );
    useAuthStore.setState({ auth: { ...impersonating, csrf_token: 'agent-tok' } });
    configureApiClient({ csrfToken: () => useAuthStore.getState().auth?.csrf_token });
    renderAs(impersonating);
    fireEvent.click(await menu(/Maria Alvarez/));
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Switch back to Admin' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'path' }).textContent).toBe('/dashboard/home'));
    expect(calls[0]).toEqual({ url: '/api/unFabricateAgent', csrf: 'agent-tok' });
    expect(calls.map((c) => c.url)).toEqual(
      expect.arrayContaining(['/api/get-auth-state', '/api/agent_branding/demo', '/api/application/active']),
    );
    expect(useAuthStore.getState().auth?.is_admin).toBe(true);
    expect(useAuthStore.getState().auth?.csrf_token).toBe('admin-tok');
  });
});
