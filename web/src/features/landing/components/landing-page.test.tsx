import { cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LandingPage, RESTART_ERROR } from './landing-page';

const supported = { product_name: 'Enrollflow', agent: { agent_name: 'Pat' }, supported: true };

function renderLanding(props: Partial<Parameters<typeof LandingPage>[0]> = {}) {
  return render(
    <MemoryRouter>
      <LandingPage
        site={supported}
        siteError={null}
        application={null}
        routes={{ start: '/whyapplying', resume: '/medical' }}
        agentCard={<p>agent card</p>}
        onRestart={async () => {}}
        {...props}
      />
    </MemoryRouter>,
  );
}

describe('LandingPage', () => {
  afterEach(cleanup);

  it('offers Get a Quote without an active application', () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/individual plans tailored to your life/i);
    expect(screen.getByRole('link', { name: 'Get a Quote' }).getAttribute('href')).toBe('/whyapplying');
    expect(screen.getByText('agent card')).toBeTruthy();
    expect(screen.getByText(/Michigan residents/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Continue Quote' })).toBeNull();
  });

  it('offers Continue Quote (to the last step) and Restart Quote with an application', async () => {
    const onRestart = vi.fn(async () => {});
    renderLanding({ application: { lastStep: 4 }, routes: { start: '/whyapplying', resume: '/dental' }, onRestart });
    expect(screen.getByRole('link', { name: 'Continue Quote' }).getAttribute('href')).toBe('/dental');
    expect(screen.queryByRole('link', { name: 'Get a Quote' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Restart Quote' }));
    await waitFor(() => expect(onRestart).toHaveBeenCalledTimes(1));
  });

  it('tells the user when the restart fails', async () => {
    renderLanding({ application: { lastStep: 2 }, onRestart: () => Promise.reject(new Error('x')) });
    fireEvent.click(screen.getByRole('button', { name: 'Restart Quote' }));
    expect((await screen.findByRole('alert')).textContent).toContain(RESTART_ERROR.id);
  });

  it('says an unsupported agent does not support the product', () => {
    renderLanding({ site: { ...supported, supported: false } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      "We're sorry – this agent does not support Enrollflow at this time.",
    );
    expect(screen.queryByRole('link', { name: 'Get a Quote' })).toBeNull();
  });

  it('explains an unknown web address', () => {
    renderLanding({ site: { ...supported, agent: null } });
    expect(screen.getByText(/did not match one of our agents/)).toBeTruthy();
    expect(screen.getByText(/check the spelling/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Get a Quote' })).toBeNull();
  });
});
