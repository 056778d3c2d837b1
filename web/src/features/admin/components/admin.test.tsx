import { cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { AGENT_NOT_FOUND, disableQuestion, LoginAsAgentModal, NO_USERS, NPN_MAX } from './login-as-agent-modal';
import { OutboxPage } from './outbox-page';
import { polyfillDialogs } from '@/testing/kit';

const answers = new Map<string, { status: number; body: unknown }>();
const sent: { url: string; headers: Record<string, string> }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  sent.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
  const a = answers.get(url) ?? { status: 404, body: { error: 'No such API call.' } };
  return new Response(JSON.stringify(a.body), { status: a.status });
});

const shown = (el: HTMLElement) => (el.textContent ?? '').replace(/^(Success|Alert|Warning|Notice): /, '');

beforeAll(() => {
  polyfillDialogs();
});

beforeEach(() => {
  answers.clear();
  sent.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ csrfToken: () => 'admin-tok', redirectToRoot: () => {} });
});

afterEach(() => {
  cleanup();
  resetApiClient();
});

describe('LoginAsAgentModal', () => {
  const setup = (verifyCode = vi.fn<(code: string) => Promise<void>>(async () => {})) => {
    const onImpersonated = vi.fn(async () => {});
    render(<LoginAsAgentModal isOpen onClose={() => {}} onImpersonated={onImpersonated} verifyCode={verifyCode} />);
    const npn = screen.getByLabelText(/^Agent NPN/) as HTMLInputElement;
    const search = screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement;
    return { onImpersonated, npn, search, verifyCode };
  };

  it('asks for a code when the server wants a fresh second factor, then logs in as the agent', async () => {
    answers.set('/api/admin/getUsersByNPN/17439021', {
      status: 200,
      body: [{ id: 'u-1', first_name: 'Maria', last_name: 'Alvarez', email: 'maria@example.com' }],
    });
    answers.set('/api/admin/fabricateAgent/u-1', {
      status: 403,
      body: { error: 'Please enter a code from your authenticator app to continue.', second_factor: 'required' },
    });
    const redirects: string[] = [];
    configureApiClient({ csrfToken: () => 'admin-tok', redirectToRoot: () => redirects.push('/') });
    const verifyCode = vi.fn<(code: string) => Promise<void>>(async () => {
      answers.set('/api/admin/fabricateAgent/u-1', { status: 200, body: { subdomain: 'acme', csrf_token: 'agent-tok' } });
    });
    const { npn, search, onImpersonated } = setup(verifyCode);
    fireEvent.change(npn, { target: { value: '17439021' } });
    fireEvent.click(search);
    fireEvent.click(await screen.findByRole('button', { name: /^Log In/ }));
    const code = (await screen.findByLabelText(/^Authentication code/)) as HTMLInputElement;
    expect(redirects).toEqual([]);
    expect(code.autocomplete).toBe('one-time-code');
    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(onImpersonated).toHaveBeenCalledWith({ subdomain: 'acme', csrf_token: 'agent-tok' }));
    expect(verifyCode).toHaveBeenCalledWith('123 456');
  });

  it('takes at most 10 characters and searches only with an NPN', () => {
    const { npn, search } = setup();
    expect(npn.maxLength).toBe(NPN_MAX);
    expect(search.disabled).toBe(true);
    fireEvent.change(npn, { target: { value: '   ' } });
    expect(search.disabled).toBe(true);
    fireEvent.change(npn, { target: { value: '123456789012' } });
    expect(npn.value).toBe('1234567890');
    expect(search.disabled).toBe(false);
  });

  it('says "Agent not found" for an unknown NPN', async () => {
    answers.set('/api/admin/getUsersByNPN/555', { status: 404, body: { error: 'Agent not found' } });
    const { npn, search } = setup();
    fireEvent.change(npn, { target: { value: '555' } });
    fireEvent.click(search);
    expect(shown(await screen.findByRole('alert'))).toBe(AGENT_NOT_FOUND);
  });

  it('only logs a user lookup that fails otherwise (a server error is no "Agent not found")', async () => {
    answers.set('/api/admin/getUsersByNPN/17439021', { status: 500, body: { error: 'Internal error' } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { npn, search } = setup();
    fireEvent.change(npn, { target: { value: '17439021' } });
    fireEvent.click(search);
    await waitFor(() => expect(logged).toHaveBeenCalledWith('The user lookup failed', expect.anything()));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(AGENT_NOT_FOUND)).toBeNull();
    logged.mockRestore();
  });

  it('says when the agent has no user accounts', async () => {
    answers.set('/api/admin/getUsersByNPN/17439021', { status: 200, body: [] });
    const { npn, search } = setup();
    fireEvent.change(npn, { target: { value: '17439021' } });
    fireEvent.click(search);
    expect(await screen.findByText(NO_USERS)).toBeTruthy();
  });

  it("lists the agent's users and logs in as one with the CSRF header", async () => {
    answers.set('/api/admin/getUsersByNPN/17439021', {
      status: 200,
      body: [{ id: 'u-1', first_name: 'Maria', last_name: 'Alvarez', email: 'maria@example.com' }],
    });
    answers.set('/api/admin/fabricateAgent/u-1', { status: 200, body: { subdomain: 'acme', csrf_token: 'agent-tok' } });
    const { npn, search, onImpersonated } = setup();
    fireEvent.change(npn, { target: { value: ' 17439021 ' } });
    fireEvent.submit(search.closest('form') as HTMLFormElement);
    const logIn = await screen.findByRole('button', { name: /^Log In/ });
    expect(logIn.textContent).toBe('Log In as Maria Alvarez');
    expect(screen.getByText('maria@example.com')).toBeTruthy();
    fireEvent.click(logIn);
    await waitFor(() => expect(onImpersonated).toHaveBeenCalledWith({ subdomain: 'acme', csrf_token: 'agent-tok' }));
    const call = sent.find((s) => s.url === '/api/admin/fabricateAgent/u-1');
    expect(call?.headers['X-CSRF-Token']).toBe('admin-tok');
  });

  it('only logs a failed login-as', async () => {
    answers.set('/api/admin/getUsersByNPN/1', {
      status: 200,
      body: [{ id: 'u-2', first_name: 'Dan', last_name: 'O', email: 'd@example.com' }],
    });
    answers.set('/api/admin/fabricateAgent/u-2', { status: 404, body: { error: 'User not found' } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { npn, search, onImpersonated } = setup();
    fireEvent.change(npn, { target: { value: '1' } });
    fireEvent.click(search);
    fireEvent.click(await screen.findByRole('button', { name: /^Log In/ }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(onImpersonated).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('disables a user after confirming, then enables them again', async () => {
    const url = '/api/admin/users/u-1/disabled';
    answers.set('/api/admin/getUsersByNPN/17439021', {
      status: 200,
      body: [{ id: 'u-1', first_name: 'Maria', last_name: 'Alvarez', email: 'maria@example.com' }],
    });
    const puts = () =>
      fetchMock.mock.calls
        .filter(([input]) => String(input) === url)
        .map(([, init]) => ({ method: init?.method, body: JSON.parse(String(init?.body)) as unknown }));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    try {
      fetchMock.mockClear();
      const { npn, search } = setup();
      fireEvent.change(npn, { target: { value: '17439021' } });
      fireEvent.click(search);

      // Refused at the confirmation: nothing is sent.
      fireEvent.click(await screen.findByRole('button', { name: 'Disable Maria Alvarez' }));
      expect(confirm).toHaveBeenLastCalledWith(
        'Disable Maria Alvarez? They are signed out everywhere at once and cannot log in until enabled again.',
      );
      expect(confirm).toHaveBeenLastCalledWith(disableQuestion('Maria Alvarez'));
      expect(puts()).toEqual([]);

      answers.set(url, { status: 200, body: { id: 'u-1', disabled: true } });
      fireEvent.click(screen.getByRole('button', { name: 'Disable Maria Alvarez' }));
      const enable = await screen.findByRole('button', { name: 'Enable Maria Alvarez' });
      expect(puts()).toEqual([{ method: 'PUT', body: { disabled: true } }]);
      expect(sent.find((s) => s.url === url)?.headers['X-CSRF-Token']).toBe('admin-tok');
      expect(screen.getByText('Disabled')).toBeTruthy();

      // Enabling asks nothing.
      answers.set(url, { status: 200, body: { id: 'u-1', disabled: false } });
      fireEvent.click(enable);
      expect(await screen.findByRole('button', { name: 'Disable Maria Alvarez' })).toBeTruthy();
      expect(puts()).toEqual([
        { method: 'PUT', body: { disabled: true } },
        { method: 'PUT', body: { disabled: false } },
      ]);
      expect(confirm).toHaveBeenCalledTimes(2);
      expect(screen.queryByText('Disabled')).toBeNull();
    } finally {
      confirm.mockRestore();
    }
  });
});

describe('LoginAsAgentModal, disabling with a stale second factor', () => {
  it('asks for a code, then disables without asking the question again', async () => {
    answers.set('/api/admin/getUsersByNPN/17439021', {
      status: 200,
      body: [{ id: 'u-1', first_name: 'Maria', last_name: 'Alvarez', email: 'maria@example.com' }],
    });
    const url = '/api/admin/users/u-1/disabled';
    answers.set(url, { status: 403, body: { error: 'Please enter a code.', second_factor: 'required' } });
    const verifyCode = vi.fn<(code: string) => Promise<void>>(async () => {
      answers.set(url, { status: 200, body: { id: 'u-1', disabled: true } });
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    try {
      render(<LoginAsAgentModal isOpen onClose={() => {}} onImpersonated={vi.fn(async () => {})} verifyCode={verifyCode} />);
      fireEvent.change(screen.getByLabelText(/^Agent NPN/), { target: { value: '17439021' } });
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Disable Maria Alvarez' }));
      expect(await screen.findByText(/To disable Maria Alvarez, enter a code/)).toBeTruthy();
      expect(screen.queryByText('Disabled')).toBeNull();
      fireEvent.change(screen.getByLabelText(/^Authentication code/), { target: { value: '123456' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify and disable' }));
      expect(await screen.findByRole('button', { name: 'Enable Maria Alvarez' })).toBeTruthy();
      expect(verifyCode).toHaveBeenCalledWith('123456');
      expect(confirm).toHaveBeenCalledTimes(1);
      expect(screen.queryByLabelText(/^Authentication code/)).toBeNull();
    } finally {
      confirm.mockRestore();
    }
  });
});

describe('OutboxPage', () => {
  it('lists the newest e-mails with their links', async () => {
    answers.set('/api/admin/outbox', {
      status: 200,
      body: [
        {
          id: 2,
          to_address: 'maria@example.com',
          subject: 'Reset your Enrollflow password',
          body: 'Open this link:\n\nhttp://acme.localhost:8080/reset-password/email/maria@example.com/token/abc\n',
          created_at: '2024-11-20T10:00:00Z',
          sent_at: null,
          attempts: 0,
        },
        {
          id: 1,
          to_address: 'sam@example.com',
          subject: 'Create your Enrollflow account',
          body: '',
          created_at: '2024-11-19T10:00:00Z',
          sent_at: '2024-11-19T10:01:00Z',
          attempts: 1,
        },
      ],
    });
    render(<OutboxPage />);
    expect(await screen.findByText('Reset your Enrollflow password')).toBeTruthy();
    expect(screen.getByRole('link', { name: /reset-password/ }).getAttribute('href')).toBe(
      'http://acme.localhost:8080/reset-password/email/maria@example.com/token/abc',
    );
    expect(screen.getByText('Sent through SMTP: the text is not kept.')).toBeTruthy();
    expect(screen.getByText(/To sam@example.com/).textContent).toContain('sent');
    // Michigan's clock, the zone named (not the browser's zone, unsaid).
    expect(screen.getByText(/To sam@example.com/).textContent).toContain('Nov 19, 2024, 5:00 AM EST');
  });
});
