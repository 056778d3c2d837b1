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
  it('sends the typed address and says until when the link works', async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push({ url: String(input), body: JSON.parse(String(init?.body ?? 'null')) });
        return answer(200, { expires_at: '2024-12-04T15:00:00Z' });
      }),
    );
    render(<SaveForLater />);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    fireEvent.change(await screen.findByLabelText('Email', {}, { timeout: 5000 }), { target: { value: ' ann@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email Me a Link' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('We sent a link to ann@example.com');
    expect(status.textContent).toContain(untilDate('2024-12-04T15:00:00Z'));
    expect(untilDate('2024-12-04T15:00:00Z')).toBe('December 4, 2024');
    expect(calls).toEqual([{ url: '/api/application/saveForLater', body: { email: 'ann@example.com' } }]);
  });

  it("shows the server's word under the field, and a refusal above the form", async () => {
    let reply = answer(422, { errors: { email: ['Please enter a valid e-mail address.'] } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply),
    );
    render(<SaveForLater />);
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    fireEvent.change(await screen.findByLabelText('Email', {}, { timeout: 5000 }), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email Me a Link' }));
    expect(await screen.findByText('Please enter a valid e-mail address.')).toBeTruthy();
    reply = answer(429, { error: 'too many' });
    fireEvent.click(screen.getByRole('button', { name: 'Email Me a Link' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many links were sent');
  });
});
