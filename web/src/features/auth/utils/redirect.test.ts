import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './redirect';

const HOME = '/dashboard/home';

describe('safeRedirectPath', () => {
  it('keeps a path on this site with its query and hash', () => {
    expect(safeRedirectPath('/dashboard/quoting', HOME)).toBe('/dashboard/quoting');
    expect(safeRedirectPath('/dashboard/enrolled?page=2#top', HOME)).toBe('/dashboard/enrolled?page=2#top');
  });

  it('falls back to dashboard-home without a redirect', () => {
    expect(safeRedirectPath(null, HOME)).toBe(HOME);
    expect(safeRedirectPath(undefined, HOME)).toBe(HOME);
    expect(safeRedirectPath('', HOME)).toBe(HOME);
  });

  it('never leaves the site (no open redirect)', () => {
    for (const evil of [
      'https://evil.example/',
      'http://evil.example',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      ' /dashboard/home',
    ]) {
      expect(safeRedirectPath(evil, HOME), evil).toBe(HOME);
    }
  });

  it('does not return to an account route (that would open a modal again)', () => {
    expect(safeRedirectPath('/login', HOME)).toBe(HOME);
    expect(safeRedirectPath('/login?redirectFrom=%2Fdashboard', HOME)).toBe(HOME);
    expect(safeRedirectPath('/register/token/abc/', HOME)).toBe(HOME);
    expect(safeRedirectPath('/reset-password/email/a@b.c/token/t', HOME)).toBe(HOME);
    expect(safeRedirectPath('/loginhelp', HOME)).toBe('/loginhelp');
  });

  it('normalizes dot segments before checking', () => {
    expect(safeRedirectPath('/dashboard/../login', HOME)).toBe(HOME);
    expect(safeRedirectPath('/a/../dashboard/home', HOME)).toBe('/dashboard/home');
  });
});
