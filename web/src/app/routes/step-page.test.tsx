import { cleanup, render, screen } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testFlow } from '@/testing/flow';
import { LOAD_FAILED, StepPage } from './step-page';

// Spec part 2, 8: "Load failures on other, why-applying, review and dashboard pages …: alert 'An
// error occurred, please try again. If it continues, contact your agent.'"; part 1, 8: "Loading
// forms fails".
describe('a step whose view cannot be loaded', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it.each(['whyApplying', 'other', 'review'])('%s says so under its title, with the contact-your-agent alert', async (id) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":"Internal error"}', { status: 500, headers: { 'Content-Type': 'application/json' } })),
    );
    const step = testFlow().steps.find((s) => s.id === id);
    if (!step) throw new Error(`no ${id} step in the test flow`);
    const router = createMemoryRouter([{ path: '*', element: <StepPage step={step} /> }], { initialEntries: [step.route] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByText(LOAD_FAILED.id)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: step.title })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Sorry, something went wrong' })).toBeTruthy();
  });
});
