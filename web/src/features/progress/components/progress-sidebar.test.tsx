import { cleanup, fireEvent, render, screen } from '@/test/render';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { testFlow } from '@/testing/flow';
import { ProgressSidebar } from './progress-sidebar';

const flow = testFlow({ lastStep: 3 });

// Below 768 px the progress list collapses to "Step N of M" (N: the current step's place among the
// steps listed, M: their count) with a toggle (aria-expanded, aria-controls) that shows the whole
// list, so the form is the first thing on a phone; CSS hides the toggle from 768 px, and hides the
// list below it until opened, laying it over the page (progress-sidebar.css).
describe('ProgressSidebar', () => {
  afterEach(cleanup);

  const draw = (currentStep = 'medical', f = flow) =>
    render(
      <MemoryRouter>
        <ProgressSidebar flow={f} currentStep={currentStep} />
        <button type="button">Elsewhere</button>
      </MemoryRouter>,
    );

  it('sums the progress up as "Step N of M" with a toggle that shows the whole list', () => {
    draw();
    const toggle = screen.getByRole('button', { name: /Step 3 of 9: Medical/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const list = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(list?.tagName).toBe('OL');
    expect(list?.classList.contains('ef-progress__sections--open')).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(list?.classList.contains('ef-progress__sections--open')).toBe(true);
    expect(screen.getByRole('link', { name: 'Medical' }).getAttribute('aria-current')).toBe('step');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('counts the steps the flow lists: PCP Selection only for an HMO plan', () => {
    const { unmount } = draw('rap', testFlow({ lastStep: 10 }));
    expect(screen.getByRole('button', { name: /^Step 9 of 9: Review and Purchase/ })).toBeTruthy();
    unmount();
    draw('rap', testFlow({ lastStep: 10, hmo: true }));
    expect(screen.getByRole('button', { name: /^Step 10 of 10: Review and Purchase/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Step 10 of 10: Review and Purchase, show all steps$/ }).textContent).not.toContain(' :');
  });

  it('closes with Escape (focus back on the toggle), a click outside, or a step chosen from it', () => {
    draw();
    const toggle = screen.getByRole('button', { name: /Step 3 of 9/ });
    fireEvent.click(toggle);
    fireEvent.keyDown(screen.getByRole('link', { name: 'Medical' }), { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);

    fireEvent.click(toggle);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('link', { name: 'Basic Info' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when another step opens', () => {
    const { rerender } = draw();
    fireEvent.click(screen.getByRole('button', { name: /Step 3 of 9/ }));
    rerender(
      <MemoryRouter>
        <ProgressSidebar flow={flow} currentStep="census" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('button', { name: /Step 2 of 9: Basic Info/ }).getAttribute('aria-expanded')).toBe('false');
  });
});
