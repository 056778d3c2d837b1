import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressSidebar } from './progress-sidebar';

const application = {
  lastStep: 3,
  medicalNetworkTypeId: null,
  skipMedical: false,
  skipDental: false,
  skipVision: false,
  skipOther: false,
  skipPcp: false,
};

// Issue "The spec, to the letter", item 4: below 768 px the progress list collapses to "Step N of
// M" with a toggle, so the form is the first thing on a phone (CSS hides the list until opened).
describe('ProgressSidebar', () => {
  afterEach(cleanup);

  const draw = () =>
    render(
      <MemoryRouter>
        <ProgressSidebar application={application} currentStep="medical" />
      </MemoryRouter>,
    );

  it('sums the progress up as "Step N of M" with a toggle that shows the whole list', () => {
    draw();
    const toggle = screen.getByRole('button', { name: /Step 3 of 9: Medical/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const list = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(list?.classList.contains('ef-progress__sections--open')).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(list?.classList.contains('ef-progress__sections--open')).toBe(true);
    expect(screen.getByRole('link', { name: 'Medical' }).getAttribute('aria-current')).toBe('step');
  });
});
