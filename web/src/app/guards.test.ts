import { describe, expect, it } from 'vitest';
import { guardRoute, type GuardContext } from './guards';

const ctx = (over: Partial<GuardContext> = {}): GuardContext => ({
  application: null,
  isAuthorized: false,
  isAdmin: false,
  fullPath: '/',
  ...over,
});
const open = { submissionTime: null };
const submitted = { submissionTime: '2025-01-02T10:00:00Z' };

describe('guardRoute', () => {
  it('always allows whyApplying', () => {
    expect(guardRoute({ kind: 'step', step: 'whyApplying' }, ctx())).toBeNull();
  });

  it('sends other steps to the root without an application', () => {
    expect(guardRoute({ kind: 'step', step: 'census' }, ctx())).toBe('/');
    expect(guardRoute({ kind: 'step', step: 'rap' }, ctx())).toBe('/');
    expect(guardRoute({ kind: 'step', step: 'census' }, ctx({ application: open }))).toBeNull();
  });

  // Spec part 2, 2: "If the application is already submitted, any target except rap is redirected
  // to rap." The dashboard is no exception.
  it('sends every target but rap to rap once the application is submitted, the dashboard included', () => {
    expect(guardRoute({ kind: 'step', step: 'census' }, ctx({ application: submitted }))).toBe('/rap');
    expect(guardRoute({ kind: 'public' }, ctx({ application: submitted }))).toBe('/rap');
    expect(guardRoute({ kind: 'agent' }, ctx({ application: submitted, isAuthorized: true }))).toBe('/rap');
    expect(guardRoute({ kind: 'admin' }, ctx({ application: submitted, isAuthorized: true, isAdmin: true }))).toBe('/rap');
    expect(guardRoute({ kind: 'step', step: 'rap' }, ctx({ application: submitted }))).toBeNull();
  });

  it('sends visitors from the dashboard to login with the full original path', () => {
    expect(guardRoute({ kind: 'agent' }, ctx({ fullPath: '/dashboard/quoting?page=2' }))).toBe(
      '/login?redirectFrom=%2Fdashboard%2Fquoting%3Fpage%3D2',
    );
    expect(guardRoute({ kind: 'agent' }, ctx({ isAuthorized: true }))).toBeNull();
  });

  it("keeps the admins' extra pages (the outbox) for admins", () => {
    expect(guardRoute({ kind: 'admin' }, ctx({ fullPath: '/manageMessages' }))).toBe('/login?redirectFrom=%2FmanageMessages');
    expect(guardRoute({ kind: 'admin' }, ctx({ isAuthorized: true }))).toBe('/dashboard/home');
    expect(guardRoute({ kind: 'admin' }, ctx({ isAuthorized: true, isAdmin: true }))).toBeNull();
  });
});
