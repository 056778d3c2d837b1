import { cleanup, render, screen } from '@/test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTimeoutDialogs } from './session-timeout-dialogs';

describe('SessionTimeoutDialogs', () => {
  afterEach(cleanup);

  const renderPhase = (phase: Parameters<typeof SessionTimeoutDialogs>[0]['phase']) =>
    render(<SessionTimeoutDialogs phase={phase} onContinue={vi.fn(async () => {})} onExpiredContinue={vi.fn()} />);

  it('counts down in seconds, the count in bold', () => {
    renderPhase({ kind: 'warning', secondsLeft: 45 });
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Your session is about to expire');
    expect(dialog.textContent).toContain(
      'For your security, your session will end in 45 seconds because of inactivity. Select Continue to keep working.',
    );
    expect(dialog.querySelector('strong')?.textContent).toBe('45 seconds');
  });

  it('says "1 second", not "1 seconds"', () => {
    renderPhase({ kind: 'warning', secondsLeft: 1 });
    expect(screen.getByRole('dialog').querySelector('strong')?.textContent).toBe('1 second');
  });

  it('says the session has expired', () => {
    renderPhase({ kind: 'expired' });
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Your session has expired');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });
});
