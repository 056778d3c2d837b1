import { describe, expect, it } from 'vitest';
import { routeTemplate } from './route-template';

describe('routeTemplate', () => {
  it('keeps plain routes as they are', () => {
    expect(routeTemplate('/census', {})).toBe('/census');
    expect(routeTemplate('/', {})).toBe('/');
    expect(routeTemplate('/dashboard/home', {})).toBe('/dashboard/home');
  });

  it('puts parameter names where their values were', () => {
    expect(
      routeTemplate('/reset-password/email/ann%40example.com/token/abc123', { email: 'ann@example.com', token: 'abc123' }),
    ).toBe('/reset-password/email/:email/token/:token');
    expect(routeTemplate('/register/token/t0k/', { token: 't0k' })).toBe('/register/token/:token/');
  });

  it('never sends anything outside the template alphabet', () => {
    expect(routeTemplate('/odd/ann@example.com', {})).toBe('/unknown');
  });
});
