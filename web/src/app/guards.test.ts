import { describe, expect, it } from 'vitest';
import { testFlow } from '@/testing/flow';
import { guardRoute, type GuardContext } from './guards';

const ctx = (over: Partial<GuardContext> = {}): GuardContext => ({
  application: null,
  isAuthorized: false,
  isAdmin: false,
  worksOnRules: false,
  fullPath: '/',
  submitted: { id: 'rap', route: '/rap' },
  ...over,
});
const open = { submissionTime: null };
const submitted = { submissionTime: '2025-01-02T10:00:00Z' };
const step = (id: string, flow = testFlow({ lastStep: 4 })) => ({ kind: 'step' as const, step: flow.steps.find((s) => s.id === id)! });

describe('guardRoute', () => {
  it('always allows the step the flow always opens (whyApplying)', () => {
    expect(guardRoute(step('whyApplying', testFlow()), ctx())).toBeNull();
  });

  it('sends other steps to the root without an application', () => {
    expect(guardRoute(step('census', testFlow()), ctx())).toBe('/');
    expect(guardRoute(step('rap', testFlow()), ctx())).toBe('/');
    expect(guardRoute(step('census'), ctx({ application: open }))).toBeNull();
  });

  it("takes the server's word on a step (the flow's valid: reached and not skipped)", () => {
    expect(guardRoute(step('review'), ctx({ application: open }))).toBe('/');
    expect(guardRoute(step('dental', testFlow({ lastStep: 6, skipped: ['dental'] })), ctx({ application: open }))).toBe('/');
    expect(guardRoute(step('review', testFlow({ lastStep: 6 })), ctx({ application: open }))).toBeNull();
  });

  // Spec part 2, 2: "If the application is already submitted, any target except rap is redirected
  // to rap." The dashboard is no exception.
  it('sends every target but rap to rap once the application is submitted, the dashboard included', () => {
    const done = testFlow({ lastStep: 10, submitted: true });
    expect(guardRoute(step('census', done), ctx({ application: submitted }))).toBe('/rap');
    expect(guardRoute({ kind: 'public' }, ctx({ application: submitted }))).toBe('/rap');
    expect(guardRoute({ kind: 'agent' }, ctx({ application: submitted, isAuthorized: true }))).toBe('/rap');
    expect(guardRoute({ kind: 'admin' }, ctx({ application: submitted, isAuthorized: true, isAdmin: true }))).toBe('/rap');
    expect(guardRoute(step('rap', done), ctx({ application: submitted }))).toBeNull();
  });

  it("sends a submitted application to wherever the flow's submitted step lives", () => {
    const moved = { id: 'rap', route: '/purchase' };
    expect(guardRoute({ kind: 'public' }, ctx({ application: submitted, submitted: moved }))).toBe('/purchase');
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

  it('sends an analyst to the rules workbench, which only analysts and admins open', () => {
    const analyst = ctx({ isAuthorized: true, worksOnRules: true });
    expect(guardRoute({ kind: 'agent' }, analyst)).toBe('/dashboard/rules');
    expect(guardRoute({ kind: 'admin' }, analyst)).toBe('/dashboard/rules');
    expect(guardRoute({ kind: 'rules' }, analyst)).toBeNull();
    expect(guardRoute({ kind: 'rules' }, ctx({ isAuthorized: true, isAdmin: true, worksOnRules: true }))).toBeNull();
    expect(guardRoute({ kind: 'rules' }, ctx({ isAuthorized: true }))).toBe('/dashboard/home');
    expect(guardRoute({ kind: 'rules' }, ctx())).toBe(`/login?redirectFrom=${encodeURIComponent('/')}`);
  });
});
