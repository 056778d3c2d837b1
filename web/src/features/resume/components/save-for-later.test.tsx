import { cleanup, fireEvent, render, screen } from '@/test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testFlow } from '@/testing/flow';
import { SaveForLater, offersSaveForLater, untilDate } from './save-for-later';

// "'Save and finish later' on every step after census e-mails the consumer a
// single-use link (14 days)".

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('offersSaveForLater', () => {
  const flow = testFlow({ lastStep: 7 });
  it("is offered to a consumer from the flow's step on, once the application reached it", () => {
    expect(offersSaveForLater(flow, 2, false)).toBe(false);
    expect(offersSaveForLater(flow, 3, false)).toBe(true);
    expect(offersSaveForLater(flow, 7, false)).toBe(true);
  });
  it('not to an agent, not after the purchase, not before the step is reached, not by a flow without it', () => {
    expect(offersSaveForLater(flow, 7, true)).toBe(false);
    expect(offersSaveForLater({ ...flow, submitted: true }, 10, false)).toBe(false);
    expect(offersSaveForLater({ ...flow, last_step: 2 }, 3, false)).toBe(false);
    expect(offersSaveForLater({ ...flow, save_for_later_from: null }, 7, false)).toBe(false);
    expect(offersSaveForLater(null, 7, false)).toBe(false);
  });
});

describe('SaveForLater', () => {
  it("shows the application's own address, sends there and says until when the link works", async () => {
    const calls: { method: string; url: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push({ method, url: String(input) });
        if (method === 'GET') return answer(200, { email: 'ann@example.com' });
        return answer(200, { email: 'ann@example.com', expires_at: '2024-12-04T15:00:00Z' });
      }),
    );
    render(<SaveForLater />);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    expect((await screen.findByText('ann@example.com', {}, { timeout: 5000 })).tagName).toBe('STRONG');
    // Nothing to type: the link goes only to the address the application holds.
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Email Me a Link' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('We sent a link to ann@example.com');
    expect(status.textContent).toContain(untilDate('2024-12-04T15:00:00Z'));
    expect(untilDate('2024-12-04T15:00:00Z')).toBe('December 4, 2024');
    expect(calls).toEqual([
      { method: 'GET', url: '/api/application/saveForLater' },
      { method: 'POST', url: '/api/application/saveForLater' },
    ]);
  });

  it('sends nothing when the application has no address, and says a refusal above the form', async () => {
    let address: unknown = { email: null };
    const reply = answer(429, { error: 'too many' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => ((init?.method ?? 'GET') === 'GET' ? answer(200, address) : reply)),
    );
    render(<SaveForLater />);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    expect(await screen.findByText(/has no e-mail address yet/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Email Me a Link' }).hasAttribute('disabled')).toBe(true);
    cleanup();

    address = { email: 'ann@example.com' };
    render(<SaveForLater />);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    await screen.findByText('ann@example.com', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Email Me a Link' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many links were sent');
  });
});
