import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { jsonResponse, polyfillDialogs } from '@/testing/kit';
import { TURNED_OFF, TwoStepModal } from './two-step-modal';

const answers = new Map<string, { status: number; body?: unknown }>();
const sent: { method: string; url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? 'GET';
  const url = String(input);
  sent.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const a = answers.get(`${method} ${url}`) ?? { status: 404, body: { error: 'No such API call.' } };
  return a.status === 204 ? new Response(null, { status: 204 }) : jsonResponse(a.status, a.body);
});
const answer = (method: string, url: string, status: number, body?: unknown) => answers.set(`${method} ${url}`, { status, body });
const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeAll(() => polyfillDialogs());
beforeEach(() => {
  answers.clear();
  sent.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ csrfToken: () => 'tok', redirectToRoot: () => {} });
});
afterEach(() => {
  cleanup();
  resetApiClient();
});

const ENROLMENT = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/Enrollflow:maria?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
};

describe('TwoStepModal', () => {
  it('sets up an app with the password and its first code, then shows the recovery codes', async () => {
    answer('GET', '/api/user/second-factor', 200, { enabled: false, required: false, recovery_codes_left: 0 });
    answer('POST', '/api/user/second-factor/setup', 200, ENROLMENT);
    answer('PUT', '/api/user/second-factor', 422, { errors: { code: ['That code is not right.'] } });
    render(<TwoStepModal isOpen onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Two-step verification' });
    expect((await within(dialog).findByText(/Off\./)).textContent).toBe('Off.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set up' }));
    await within(dialog).findByRole('img', { name: /QR code/ });
    type(/^Your password/, 'demo-password-2024');
    type(/^Authentication code/, '000000');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(screen.getByLabelText(/^Authentication code/).getAttribute('aria-invalid')).toBe('true'));
    const codes = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CCCC-DDDD-EEEE-FFF${i}`);
    answer('PUT', '/api/user/second-factor', 200, { recovery_codes: codes });
    type(/^Authentication code/, '123456');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(sent.filter((s) => s.method === 'PUT').at(-1)?.body).toEqual({ password: 'demo-password-2024', code: '123456' });
    answer('GET', '/api/user/second-factor', 200, { enabled: true, required: false, recovery_codes_left: 10 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have saved them' }));
    expect(await within(dialog).findByText(/10 of your recovery codes are left/)).toBeTruthy();
  });

  it('replaces an app only with a code from the current one (or a recovery code) besides the password', async () => {
    answer('GET', '/api/user/second-factor', 200, { enabled: true, required: false, recovery_codes_left: 9 });
    answer('POST', '/api/user/second-factor/setup', 200, ENROLMENT);
    answer('PUT', '/api/user/second-factor', 422, {
      errors: { current_code: ['Enter a code from your current authenticator app, or one of your recovery codes.'] },
    });
    render(<TwoStepModal isOpen onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Use another phone' }));
    await screen.findByRole('img', { name: /QR code/ });
    type(/^Your password/, 'demo-password-2024');
    type(/^Authentication code/, '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const current = screen.getByLabelText(/^Code from your current app/);
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    answer('PUT', '/api/user/second-factor', 200, { recovery_codes: ['AAAA-BBBB'] });
    type(/^Code from your current app/, ' 654321 ');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(sent.filter((s) => s.method === 'PUT').at(-1)?.body).toEqual({
      password: 'demo-password-2024',
      code: '123456',
      current_code: '654321',
    });
  });

  it('offers no Turn off when the account must keep it, and turns it off with the password and a code otherwise', async () => {
    answer('GET', '/api/user/second-factor', 200, { enabled: true, required: true, recovery_codes_left: 4 });
    const { unmount } = render(<TwoStepModal isOpen onClose={() => {}} />);
    await screen.findByText(/must keep two-step verification/);
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    unmount();

    answer('GET', '/api/user/second-factor', 200, { enabled: true, required: false, recovery_codes_left: 4 });
    answer('DELETE', '/api/user/second-factor', 204);
    render(<TwoStepModal isOpen onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    type(/^Your password/, 'demo-password-2024');
    type(/^Code from your current app/, 'ABCD-EFGH-IJKL');
    answer('GET', '/api/user/second-factor', 200, { enabled: false, required: false, recovery_codes_left: 0 });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(TURNED_OFF)).toBeTruthy();
    expect(sent.find((s) => s.method === 'DELETE')?.body).toEqual({
      password: 'demo-password-2024',
      current_code: 'ABCD-EFGH-IJKL',
    });
  });
});
