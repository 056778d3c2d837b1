import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { ChangePasswordModal } from './change-password-modal';
import { ForgotPasswordModal } from './forgot-password-modal';
import { LoginModal } from './login-modal';
import { RegisterModal } from './register-modal';
import { ResetPasswordModal } from './reset-password-modal';
import { COPY_TOOLTIP_MS, ShareSiteModal } from './share-site-modal';
import { polyfillDialogs } from '@/testing/kit';

type Answer = { status: number; body?: unknown };
const answers = new Map<string, Answer>();
const sent: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];

function answer(method: string, url: string, status: number, body?: unknown) {
  answers.set(`${method} ${url}`, { status, body });
}

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const url = String(input);
  sent.push({
    method,
    url,
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
    headers: (init?.headers ?? {}) as Record<string, string>,
  });
  const a = answers.get(`${method} ${url}`) ?? { status: 404, body: { error: 'No such API call.' } };
  return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status });
});

function renderInRouter(ui: ReactElement) {
  return render(<MemoryRouter>{ui}</MemoryRouter>);
}

/** An alert's text without the design system's screen-reader prefix ("Success: ", "Alert: "). */
const shown = (el: HTMLElement) => (el.textContent ?? '').replace(/^(Success|Alert|Warning|Notice): /, '');

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeAll(() => {
  polyfillDialogs();
});

beforeEach(() => {
  answers.clear();
  sent.length = 0;
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ csrfToken: () => 'tok', redirectToRoot: () => {} });
});

afterEach(() => {
  cleanup();
  resetApiClient();
  vi.useRealTimers();
});

describe('LoginModal', () => {
  const setup = () => {
    const onLoggedIn = vi.fn(async () => {});
    const onForgotPassword = vi.fn();
    const onClose = vi.fn();
    renderInRouter(
      <LoginModal productName="Enrollflow" onLoggedIn={onLoggedIn} onForgotPassword={onForgotPassword} onClose={onClose} />,
    );
    return { onLoggedIn, onForgotPassword, onClose };
  };

  it('has email, password, the Forgot Password link and the terms note', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Agent Login' });
    expect(within(dialog).getByLabelText('Email')).toBeTruthy();
    expect(within(dialog).getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(within(dialog).getByRole('button', { name: 'Forgot Password?' })).toBeTruthy();
    expect(dialog.textContent).toContain('Terms of Use');
  });

  it('logs in and hands the new session over', async () => {
    answer('POST', '/api/login', 200, { subdomain: 'acme', csrf_token: 'new' });
    const { onLoggedIn } = setup();
    type('Email', ' maria@example.com ');
    type('Password', 'demo-password-2024');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledWith({ subdomain: 'acme', csrf_token: 'new' }));
    expect(sent[0]).toMatchObject({ method: 'POST', body: { email: 'maria@example.com', password: 'demo-password-2024' } });
    expect(sent[0]?.headers['X-CSRF-Token']).toBe('tok');
  });

  it('shows a wrong password under the password field and scrolls to the top', async () => {
    answer('POST', '/api/login', 422, { errors: { login_password: ['These credentials do not match our records.'] } });
    const { onLoggedIn } = setup();
    const body = document.querySelector('.ds-c-dialog__body') as HTMLElement;
    body.scrollTop = 120;
    type('Email', 'maria@example.com');
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    const password = screen.getByLabelText(/^Password/);
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const errorId = password.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId.split(' ')[0] ?? '')?.textContent).toContain(
      'These credentials do not match our records.',
    );
    expect(body.scrollTop).toBe(0);
    expect(onLoggedIn).not.toHaveBeenCalled();
  });

  it('asks for the code after the password, shows a wrong one under its field, then logs in', async () => {
    answer('POST', '/api/login', 200, { subdomain: null, csrf_token: 'tok', second_factor: 'code' });
    answer('POST', '/api/login/second-factor', 422, { errors: { code: ['That code is not right.'] } });
    const { onLoggedIn } = setup();
    type('Email', 'admin@example.com');
    type('Password', 'demo-password-2024');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    const dialog = await screen.findByRole('dialog', { name: 'Two-step verification' });
    expect(onLoggedIn).not.toHaveBeenCalled();
    type(/^Authentication code/, '000000');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    const field = screen.getByLabelText(/^Authentication code/);
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    answer('POST', '/api/login/second-factor', 200, { subdomain: 'demo', csrf_token: 'new' });
    // A recovery code instead.
    fireEvent.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    type(/^Recovery code/, 'abcd-efgh-jkmn-pqrs-tuvw-xyz2');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledWith({ subdomain: 'demo', csrf_token: 'new' }));
    expect(sent.at(-1)).toMatchObject({ url: '/api/login/second-factor', body: { recovery_code: 'abcd-efgh-jkmn-pqrs-tuvw-xyz2' } });
  });

  it('sets up an app when the account must have one, and shows the recovery codes before going on', async () => {
    answer('POST', '/api/login', 200, { subdomain: null, csrf_token: 'tok', second_factor: 'setup' });
    answer('POST', '/api/login/second-factor/setup', 200, {
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      uri: 'otpauth://totp/Enrollflow:maria%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    });
    const codes = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CCCC-DDDD-EEEE-FFF${i}`);
    answer('POST', '/api/login/second-factor', 200, { subdomain: 'acme', csrf_token: 'new', recovery_codes: codes });
    const { onLoggedIn } = setup();
    type('Email', 'maria@example.com');
    type('Password', 'demo-password-2024');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-step verification' });
    const qr = await within(dialog).findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(dialog.textContent).toContain('JBSW Y3DP EHPK 3PXP');
    type(/^Authentication code/, '123456');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(within(saved).getAllByRole('listitem')).toHaveLength(10);
    expect(onLoggedIn).not.toHaveBeenCalled();
    fireEvent.click(within(saved).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalled());
  });

  it('says when logins are throttled (429)', async () => {
    answer('POST', '/api/login', 429, { error: 'Too many attempts. Please wait a moment and try again.' });
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(shown(await screen.findByRole('alert'))).toBe('Too many attempts. Please wait a moment and try again.');
  });

  it('opens Forgot Password with the typed address, and Cancel closes', () => {
    const { onForgotPassword, onClose } = setup();
    type('Email', 'maria@example.com ');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot Password?' }));
    expect(onForgotPassword).toHaveBeenCalledWith('maria@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('ForgotPasswordModal', () => {
  it("sends the address and shows the server's message, then only Close", async () => {
    answer('POST', '/api/forgot-password', 200, { message: 'If an account uses that e-mail address, we have sent it a link.' });
    renderInRouter(<ForgotPasswordModal initialEmail="maria@example.com" onClose={() => {}} />);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('maria@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(shown(await screen.findByRole('status'))).toBe(
      'If an account uses that e-mail address, we have sent it a link.',
    );
    expect(sent[0]?.body).toEqual({ email: 'maria@example.com' });
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('shows an invalid address under the field', async () => {
    answer('POST', '/api/forgot-password', 422, { errors: { email: ['Please enter a valid e-mail address.'] } });
    renderInRouter(<ForgotPasswordModal onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Please enter a valid e-mail address.')).toBeTruthy();
  });
});

describe('ResetPasswordModal', () => {
  const setup = () =>
    renderInRouter(<ResetPasswordModal email="maria@example.com" token="t0k" onClose={() => {}} />);

  it('resets with the link’s address and token, then links to the login', async () => {
    answer('POST', '/api/reset-password', 200, { message: 'Your password has been reset.' });
    setup();
    type('New password', 'a brand new passphrase');
    type('Type your new password again', 'a brand new passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(shown(await screen.findByRole('status'))).toBe('Your password has been reset.');
    expect(sent[0]?.body).toEqual({
      email: 'maria@example.com',
      token: 't0k',
      password: 'a brand new passphrase',
      password_confirmation: 'a brand new passphrase',
    });
    expect(screen.getByRole('link', { name: /Log in/ }).getAttribute('href')).toBe('/login');
  });

  it('shows password problems per field and a used link above the form', async () => {
    answer('POST', '/api/reset-password', 422, {
      errors: {
        token: ['Sorry, the link you used is no longer valid.'],
        password_confirmation: ['The password confirmation does not match.'],
      },
    });
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(shown(await screen.findByRole('alert'))).toBe('Sorry, the link you used is no longer valid.');
    expect(screen.getByText('The password confirmation does not match.')).toBeTruthy();
  });
});

describe('RegisterModal', () => {
  it('greets the invitee by name and creates the account', async () => {
    answer('GET', '/api/get-user/inv1', 200, { firstName: 'Sam', lastName: 'Rivera', email: 'sam@example.com' });
    answer('POST', '/api/register', 200, { message: 'Thank you for creating your account.' });
    renderInRouter(<RegisterModal token="inv1" onClose={() => {}} />);
    expect(await screen.findByText(/Welcome, Sam Rivera!/)).toBeTruthy();
    type('Password', 'rivers and lakes of michigan');
    type('Type your password again', 'rivers and lakes of michigan');
    fireEvent.click(screen.getByLabelText('I agree to the Terms of Use'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(shown(await screen.findByRole('status'))).toBe('Thank you for creating your account.');
    expect(sent[1]?.body).toEqual({
      token: 'inv1',
      email: 'sam@example.com',
      password: 'rivers and lakes of michigan',
      password_confirmation: 'rivers and lakes of michigan',
      tos_agree: true,
    });
    expect(screen.getByRole('link', { name: /Log in/ }).getAttribute('href')).toBe('/login');
  });

  it('shows the Terms of Use error under the checkbox', async () => {
    answer('GET', '/api/get-user/inv1', 200, { firstName: 'Sam', lastName: 'Rivera', email: 'sam@example.com' });
    answer('POST', '/api/register', 422, { errors: { tos_agree: ['You must agree to the Terms of Use.'] } });
    renderInRouter(<RegisterModal token="inv1" onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('You must agree to the Terms of Use.')).toBeTruthy();
  });

  it('says a bad link is no longer valid, with only Close', async () => {
    answer('GET', '/api/get-user/used', 404, { error: 'Sorry, the link you used is no longer valid.' });
    renderInRouter(<RegisterModal token="used" onClose={() => {}} />);
    expect(shown(await screen.findByRole('alert'))).toBe('Sorry, the link you used is no longer valid.');
    expect(screen.queryByRole('button', { name: 'Create Account' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });
});

describe('ChangePasswordModal', () => {
  it('changes the password; after success only Close remains', async () => {
    answer('PUT', '/api/user/password', 200, { message: 'Your password has been changed.' });
    const onClose = vi.fn();
    renderInRouter(<ChangePasswordModal isOpen onClose={onClose} />);
    type('Current password', 'old one');
    type(/^New password/, 'a new long passphrase');
    type('Confirm new password', 'a new long passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(shown(await screen.findByRole('status'))).toBe('Your password has been changed.');
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      body: { current_password: 'old one', new_password: 'a new long passphrase', new_password_confirmation: 'a new long passphrase' },
    });
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows a wrong current password under its field', async () => {
    answer('PUT', '/api/user/password', 422, { errors: { current_password: ['The current password is incorrect.'] } });
    renderInRouter(<ChangePasswordModal isOpen onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
    expect(screen.getByLabelText(/^Current password/).getAttribute('aria-invalid')).toBe('true');
  });
});

describe('ShareSiteModal', () => {
  it('copies the address with a tooltip for 2 seconds and links to Facebook', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.useFakeTimers();
    renderInRouter(<ShareSiteModal isOpen address="http://acme.localhost:8080/" onClose={() => {}} />);
    expect((screen.getByLabelText('Your site address') as HTMLInputElement).value).toBe('http://acme.localhost:8080/');
    const facebook = screen.getByRole('link', { name: /Share on Facebook/ });
    expect(facebook.getAttribute('href')).toBe('https://www.facebook.com/sharer/sharer.php?u=http%3A%2F%2Facme.localhost%3A8080%2F');
    expect(facebook.getAttribute('target')).toBe('_blank');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('http://acme.localhost:8080/');
    expect(screen.getByRole('status').textContent).toBe('Link copied to clipboard');
    act(() => vi.advanceTimersByTime(COPY_TOOLTIP_MS - 1));
    expect(screen.getByRole('status').textContent).toBe('Link copied to clipboard');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
