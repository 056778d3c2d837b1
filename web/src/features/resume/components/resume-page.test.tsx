import { cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResumePage } from './resume-page';

// The e-mailed link "restores the application at its last step in any browser;
// a resumed application re-checks every step under the rules in force and says what changed (a
// premium, a plan no longer offered) before Continue"; a used or expired link "is refused with a
// clear page".

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function at(reply: () => Response) {
  const posted: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/application/resume') {
        posted.push(JSON.parse(String(init?.body)));
        return reply();
      }
      // The flow, read again once the application is this browser's.
      return answer(200, { rules: 't', steps: [], submitted_step: 'rap', submitted: false, last_step: 7, save_for_later_from: 3 });
    }),
  );
  const replace = vi.spyOn(window.history, 'replaceState');
  const onResumed = vi.fn(async () => undefined);
  const router = createMemoryRouter(
    [
      { path: '/resume/token/:token', element: <ResumePage onResumed={onResumed} /> },
      { path: '/subInfo', element: <h1>Subscriber Information</h1> },
    ],
    { initialEntries: ['/resume/token/abc123'] },
  );
  render(<RouterProvider router={router} />);
  return { posted, replace, onResumed };
}

/** The person's click that spends the link. */
async function continueMyApplication() {
  fireEvent.click(await screen.findByRole('button', { name: 'Continue my application' }));
}

describe('ResumePage', () => {
  it('uses the token once, takes it out of the address, says what changed and continues where the application goes on', async () => {
    const { posted, replace, onResumed } = at(() =>
      answer(200, { route: '/subInfo', changes: ['The monthly premium of Gold is now $412.50 (it was $400.00).'], from_agent: null }),
    );
    // Opened (by a person, or a mail scanner): the token leaves the address, and nothing is used.
    expect(await screen.findByRole('heading', { name: 'Continue your application' })).toBeTruthy();
    await waitFor(() => expect(replace.mock.calls[0]?.[2]).toBe('/resume'));
    expect(posted).toEqual([]);
    await continueMyApplication();
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(screen.getByText('The monthly premium of Gold is now $412.50 (it was $400.00).')).toBeTruthy();
    expect(posted).toEqual([{ token: 'abc123' }]);
    expect(onResumed).toHaveBeenCalledTimes(1);
    expect(replace.mock.calls[0]?.[2]).toBe('/resume');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Subscriber Information' })).toBeTruthy();
  });

  it('says so when nothing changed', async () => {
    at(() => answer(200, { route: '/subInfo', changes: [], from_agent: null }));
    await continueMyApplication();
    expect(await screen.findByText(/nothing has changed since you saved it/)).toBeTruthy();
  });

  it("an agent's hand-off names the agent and what the customer does next", async () => {
    at(() => answer(200, { route: '/review', changes: [], from_agent: 'Maria Alvarez' }));
    await continueMyApplication();
    expect(await screen.findByRole('heading', { name: 'Your application is ready' })).toBeTruthy();
    expect(screen.getByText(/Maria Alvarez prepared this application with you/)).toBeTruthy();
    expect(screen.getByText('Nothing has changed since it was prepared.')).toBeTruthy();
  });

  it('says why a link does not open an application', async () => {
    at(() => answer(410, { error: 'This link has already been used.' }));
    await continueMyApplication();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('This link has already been used.'));
    expect(screen.getByRole('heading', { name: 'This link does not open an application' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});
