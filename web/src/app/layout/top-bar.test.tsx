import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Site } from '@/types/api';
import { TopBar } from './top-bar';

const site = (playground: boolean): Site => ({
  product_name: 'Enrollflow',
  tool_owner: 'Great Lakes Tools LLC',
  general_agent: 'Mitten General Agency',
  subdomain: 'acme',
  supported: true,
  demo: false,
  agent: null,
  playground,
});

function renderTopBar(s: Site | null) {
  return render(
    <MemoryRouter>
      <TopBar site={s} auth={null} showPresentedBy={false} onLogout={() => {}} />
    </MemoryRouter>,
  );
}

describe('TopBar Misc menu', () => {
  afterEach(cleanup);

  it('is not there while the playground is off (the default)', () => {
    renderTopBar(site(false));
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Playground', hidden: true })).toBeNull();
  });

  it('is not there before the site is known', () => {
    renderTopBar(null);
    expect(screen.queryByRole('button', { name: /Misc/ })).toBeNull();
  });

  it('discloses a Playground link when the playground is on', () => {
    renderTopBar(site(true));
    const button = screen.getByRole('button', { name: /Misc/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Playground' })).toBeNull();

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const link = screen.getByRole('link', { name: 'Playground' });
    expect(link.getAttribute('href')).toBe('/playground');
    expect(document.getElementById(button.getAttribute('aria-controls') ?? '')?.contains(link)).toBe(true);

    fireEvent.keyDown(link, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});
