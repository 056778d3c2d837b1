import { cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HandoffModal } from './handoff-modal';

// "'Send to customer' e-mails the consumer a link …; the agent sees the
// hand-off's state on the dashboard (sent, opened, signed, submitted) and can revoke or resend it."

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const sent = {
  state: 'sent',
  sent_at: '2024-11-20T15:00:00Z',
  expires_at: '2024-12-04T15:00:00Z',
  opened_at: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stub(first: unknown) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url: String(input), body: init?.body ? JSON.parse(String(init.body)) : null });
      if (method === 'GET') return answer(200, first);
      if (method === 'POST') return answer(200, sent);
      return answer(200, { ...sent, state: 'revoked' });
    }),
  );
  return calls;
}

describe('Send to Customer', () => {
  it("sends to the row's address, says so, and the list is told to reload", async () => {
    const calls = stub(null);
    const changed = vi.fn();
    render(<HandoffModal applicationId="app-1" email="ann@example.com" onClose={() => {}} onChanged={changed} />);
    const field = (await screen.findByLabelText("Customer's Email")) as HTMLInputElement;
    expect(field.value).toBe('ann@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Sent to ann@example.com. The link works once, for 14 days.')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ method: 'POST', url: '/api/dashboard/handoff/app-1', body: { email: 'ann@example.com', language: 'en' } });
    expect(changed).toHaveBeenCalledTimes(1);
    // In the customer's language when the agent picks one.
    fireEvent.change(screen.getByLabelText('Email language'), { target: { value: 'es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Again' }));
    await waitFor(() =>
      expect(calls.at(-1)).toEqual({ method: 'POST', url: '/api/dashboard/handoff/app-1', body: { email: 'ann@example.com', language: 'es' } }),
    );
    // Sent: it can be sent again or withdrawn.
    expect(screen.getByRole('button', { name: 'Send Again' })).toBeTruthy();
    expect(screen.getByText(/has not opened it yet/)).toBeTruthy();
  });

  it('withdraws an unopened link', async () => {
    const calls = stub(sent);
    render(<HandoffModal applicationId="app-1" email="ann@example.com" onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw Link' }));
    expect(await screen.findByText('The link was withdrawn: it no longer opens the application.')).toBeTruthy();
    expect(calls.at(-1)?.method).toBe('DELETE');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Withdraw Link' })).toBeNull());
    expect(screen.getByText(/was withdrawn\./)).toBeTruthy();
  });

  it("an opened hand-off says when; the server's refusal shows", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
        (init?.method ?? 'GET') === 'GET'
          ? answer(200, { ...sent, state: 'opened', opened_at: '2024-11-21T15:00:00Z' })
          : answer(409, { error: 'This application has already been submitted.' }),
      ),
    );
    render(<HandoffModal applicationId="app-1" email="ann@example.com" onClose={() => {}} />);
    expect(await screen.findByText(/opened by the customer on/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Withdraw Link' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send Again' }));
    expect((await screen.findByRole('alert')).textContent).toContain('already been submitted');
  });
});
