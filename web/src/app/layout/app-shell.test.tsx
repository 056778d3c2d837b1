import { act, cleanup, render, screen, waitFor } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { AuthState } from '@/types/api';
import { AppShell } from './app-shell';

// Page-view events (spec part 1, 2.2): after each navigation, the matched route's template only.

const visitor: AuthState = {
  is_authorized: false,
  is_admin: false, works_on_rules: false,
  impersonating: false,
  agent_subdomain: null,
  admin_subdomain: null,
  user_name: null,
  csrf_token: 'tok',
};

interface Sent {
  url: string;
  body: unknown;
  csrf: string | undefined;
  raw: string;
}

function stubServer() {
  const pageViews: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/events/pageView') {
        const body = typeof init?.body === 'string' ? init.body : '';
        const headers = (init?.headers ?? {}) as Record<string, string>;
        pageViews.push({ url, body: JSON.parse(body), csrf: headers['X-CSRF-Token'], raw: `${url} ${body}` });
        return new Response(null, { status: 204 });
      }
      return new Response('{}', { status: 404 });
    }),
  );
  return pageViews;
}

function renderShell(initial: string) {
  const page = (text: string) => <p>{text}</p>;
  const router = createMemoryRouter(
    [
      {
        element: <AppShell />,
        children: [
          { index: true, element: page('landing') },
          { path: 'census', element: page('census') },
          { path: 'register/token/:token', element: page('register') },
          { path: 'reset-password/email/:email/token/:token', element: page('reset') },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

// Every test: no real scrolling, the API client with the auth store's token, and a clean slate after.
beforeEach(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  configureApiClient({ csrfToken: () => useAuthStore.getState().auth?.csrf_token });
});

afterEach(() => {
  cleanup();
  resetApiClient();
  vi.unstubAllGlobals();
  useAuthStore.setState({ auth: null });
  useSiteStore.setState({ site: null, error: null });
});

describe('AppShell page-view events', () => {
  it('sends the route template after each navigation, never the ids, e-mail or tokens in the path', async () => {
    const pageViews = stubServer();
    useAuthStore.setState({ auth: visitor });
    const router = renderShell('/');
    await waitFor(() => expect(pageViews).toHaveLength(1));

    await act(() => router.navigate('/reset-password/email/ann.lee%40example.com/token/s3cr3t-T0ken'));
    await waitFor(() => expect(pageViews).toHaveLength(2));
    await act(() => router.navigate('/register/token/abc123'));
    await waitFor(() => expect(pageViews).toHaveLength(3));
    await act(() => router.navigate('/census?email=ann.lee@example.com#ssn'));
    await waitFor(() => expect(pageViews).toHaveLength(4));

    expect(pageViews.map((p) => p.body)).toEqual([
      { route: '/' },
      { route: '/reset-password/email/:email/token/:token' },
      { route: '/register/token/:token' },
      { route: '/census' },
    ]);
    for (const sent of pageViews) {
      expect(sent.csrf).toBe('tok');
      for (const secret of ['ann', 'example.com', 's3cr3t', 'abc123', 'email=', 'ssn']) expect(sent.raw).not.toContain(secret);
    }
  });

  it('waits for the CSRF token, then counts a page once (a token replaced by login does not count it again)', async () => {
    const pageViews = stubServer();
    const router = renderShell('/census');
    expect(await screen.findByText('census')).toBeTruthy();
    expect(pageViews).toHaveLength(0);

    act(() => useAuthStore.setState({ auth: visitor }));
    await waitFor(() => expect(pageViews).toHaveLength(1));
    act(() => useAuthStore.setState({ auth: { ...visitor, is_authorized: true, user_name: 'Maria Alvarez', csrf_token: 'tok-2' } }));
    // Let any effect the new token would trigger run before counting.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(pageViews).toHaveLength(1);

    await act(() => router.navigate('/'));
    await waitFor(() => expect(pageViews).toHaveLength(2));
    expect(pageViews[1]).toMatchObject({ body: { route: '/' }, csrf: 'tok-2' });
  });
});

describe('AppShell while an admin acts as an agent', () => {
  it("says on every page whose account it is, before the top bar, and Return to admin ends it", async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        return new Response(null, { status: url === '/api/events/pageView' ? 204 : 500 });
      }),
    );
    const acting: AuthState = { ...visitor, is_authorized: true, impersonating: true, user_name: 'Maria Alvarez' };
    useAuthStore.setState({ auth: acting });
    const router = renderShell('/');
    const bar = await screen.findByRole('region', { name: 'Acting as an agent' });
    expect(bar.textContent).toContain('You are acting as Maria Alvarez.');
    // First on the page, before the skip link's target and the top bar.
    expect(bar.compareDocumentPosition(document.getElementById('main')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await act(() => router.navigate('/census'));
    expect(screen.getByRole('region', { name: 'Acting as an agent' })).toBeTruthy();

    const failed = vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() => screen.getByRole('button', { name: 'Return to admin' }).click());
    await waitFor(() => expect(calls).toContain('POST /api/unFabricateAgent'));
    await waitFor(() => expect(failed).toHaveBeenCalled());
    failed.mockRestore();

    act(() => useAuthStore.setState({ auth: { ...acting, impersonating: false } }));
    expect(screen.queryByRole('region', { name: 'Acting as an agent' })).toBeNull();
  });
});

describe('AppShell navigation', () => {
  it('scrolls to the top and moves focus to the new page at each navigation (spec part 1, 2.2)', async () => {
    stubServer();
    const scrolled = vi.fn();
    window.scrollTo = scrolled as unknown as typeof window.scrollTo;
    useAuthStore.setState({ auth: visitor });
    const router = renderShell('/');
    expect(await screen.findByText('landing')).toBeTruthy();
    scrolled.mockClear();
    await act(() => router.navigate('/census'));
    expect(await screen.findByText('census')).toBeTruthy();
    expect(scrolled).toHaveBeenCalledWith(0, 0);
    expect(document.activeElement).toBe(document.getElementById('main'));
  });
});
