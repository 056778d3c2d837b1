import { act, cleanup, renderHook } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAST_ACCESS_COOKIE, readLastAccessCookie, useSessionStore } from '../stores/session-store';
import type * as SessionStoreModule from '../stores/session-store';
import { useSessionTimeout, type SessionTimeoutOptions } from './use-session-timeout';
import type * as SessionTimeoutModule from './use-session-timeout';

const MINUTE = 60_000;

function setup(over: Partial<SessionTimeoutOptions> = {}) {
  const options: SessionTimeoutOptions = {
    hasWork: vi.fn(() => true),
    onExpire: vi.fn(async () => {}),
    onContinue: vi.fn(async () => {}),
    ...over,
  };
  const hook = renderHook(() => useSessionTimeout(options));
  return { ...hook, options };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('useSessionTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-15T12:00:00Z'));
    useSessionStore.getState().touch();
  });

  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('stays quiet for the first 29 minutes', () => {
    const { result } = setup();
    advance(29 * MINUTE - 1000);
    expect(result.current.phase).toEqual({ kind: 'active' });
  });

  it('warns from 60 seconds before expiry with a countdown in seconds', () => {
    const { result } = setup();
    advance(29 * MINUTE);
    expect(result.current.phase).toEqual({ kind: 'warning', secondsLeft: 60 });
    advance(1000);
    expect(result.current.phase).toEqual({ kind: 'warning', secondsLeft: 59 });
    advance(49_000);
    expect(result.current.phase).toEqual({ kind: 'warning', secondsLeft: 10 });
  });

  it('does not warn when there is nothing to lose', () => {
    const { result } = setup({ hasWork: () => false });
    advance(29 * MINUTE + 30_000);
    expect(result.current.phase).toEqual({ kind: 'active' });
  });

  // Spec part 1, 4.1: "The last-access time is kept in a cookie and refreshed on every successful
  // API response": another tab's activity (it writes the site's cookie) keeps this tab alive.
  it("keeps the time in the site's cookie, so another tab's activity pushes this tab's expiry back", () => {
    expect(readLastAccessCookie()).toBe(Date.now());
    const { result } = setup();
    advance(20 * MINUTE);
    // Another tab of the site got an answer: it wrote the shared cookie, not this tab's store.
    document.cookie = `${LAST_ACCESS_COOKIE}=${Date.now()}; Path=/`;
    advance(20 * MINUTE);
    expect(result.current.phase).toEqual({ kind: 'active' });
    advance(9 * MINUTE);
    expect(result.current.phase).toEqual({ kind: 'warning', secondsLeft: 60 });
  });

  it('a reload goes on from the time in the cookie', async () => {
    const at = Date.now() - 10 * MINUTE;
    document.cookie = `${LAST_ACCESS_COOKIE}=${at}; Path=/`;
    vi.resetModules();
    const fresh = await import('../stores/session-store');
    expect(fresh.useSessionStore.getState().lastAccess).toBe(at);
  });

  it('at expiry without work, a tab counts afresh without writing the shared time', () => {
    const before = readLastAccessCookie();
    const { result } = setup({ hasWork: () => false });
    advance(30 * MINUTE);
    expect(result.current.phase).toEqual({ kind: 'active' });
    expect(useSessionStore.getState().lastAccess).toBe(Date.now());
    expect(readLastAccessCookie()).toBe(before);
  });

  it('pushes the expiry back whenever an API response refreshes the access time', () => {
    const { result } = setup();
    advance(20 * MINUTE);
    act(() => useSessionStore.getState().touch());
    advance(20 * MINUTE);
    expect(result.current.phase).toEqual({ kind: 'active' });
  });

  it('at expiry with work at stake: stops checking, calls onExpire once, shows expired', () => {
    const { result, options } = setup();
    advance(30 * MINUTE);
    expect(result.current.phase).toEqual({ kind: 'expired' });
    expect(options.onExpire).toHaveBeenCalledTimes(1);
    const checks = vi.mocked(options.hasWork).mock.calls.length;
    advance(10 * MINUTE);
    expect(options.onExpire).toHaveBeenCalledTimes(1);
    expect(vi.mocked(options.hasWork).mock.calls.length).toBe(checks);
    expect(result.current.phase).toEqual({ kind: 'expired' });
  });

  it('at expiry without an application or agent: just refreshes the access time', () => {
    const { result, options } = setup({ hasWork: () => false });
    advance(30 * MINUTE);
    expect(options.onExpire).not.toHaveBeenCalled();
    expect(useSessionStore.getState().lastAccess).toBe(Date.now());
    expect(result.current.phase).toEqual({ kind: 'active' });
    advance(29 * MINUTE);
    expect(options.onExpire).not.toHaveBeenCalled();
  });

  it('Continue keeps the session alive and closes the warning', async () => {
    const { result, options } = setup();
    advance(29 * MINUTE + 30_000);
    expect(result.current.phase.kind).toBe('warning');
    await act(() => result.current.continueSession());
    expect(options.onContinue).toHaveBeenCalledTimes(1);
    expect(result.current.phase).toEqual({ kind: 'active' });
    advance(29 * MINUTE - 1000);
    expect(result.current.phase).toEqual({ kind: 'active' });
    expect(options.onExpire).not.toHaveBeenCalled();
  });
});

// Spec part 1, 4.1: "The last-access time is kept in a cookie and refreshed on every successful API
// response." Two tabs of the site are two copies of the app (two module graphs) that share only
// document.cookie.
describe('the last-access cookie shared by two tabs', () => {
  type Tab = { store: typeof SessionStoreModule; hook: typeof SessionTimeoutModule };

  async function openTab(): Promise<Tab> {
    vi.resetModules();
    const store = await import('../stores/session-store');
    const hook = await import('./use-session-timeout');
    return { store, hook };
  }

  const run = (tab: Tab, hasWork: () => boolean) =>
    renderHook(() => tab.hook.useSessionTimeout({ hasWork, onExpire: vi.fn(), onContinue: vi.fn(async () => {}) }));

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-15T12:00:00Z'));
    document.cookie = `${LAST_ACCESS_COOKIE}=${Date.now()}; Path=/`;
  });

  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("writes the time as epoch ms in the site's cookie that both tabs read", async () => {
    const a = await openTab();
    const b = await openTab();
    expect(a.store.useSessionStore).not.toBe(b.store.useSessionStore);
    vi.setSystemTime(Date.now() + 5 * MINUTE);
    a.store.useSessionStore.getState().touch();
    expect(document.cookie).toContain(`${LAST_ACCESS_COOKIE}=${Date.now()}`);
    expect(b.store.useSessionStore.getState().current()).toBe(Date.now());
    expect(a.store.readLastAccessCookie()).toBe(b.store.readLastAccessCookie());
  });

  it("keeps an idle tab from timing out while the other tab's API calls succeed", async () => {
    const a = await openTab();
    const b = await openTab();
    const idle = run(b, () => true);
    advance(20 * MINUTE);
    // Tab A gets an answer from the server; tab B does nothing.
    act(() => a.store.useSessionStore.getState().touch());
    advance(20 * MINUTE);
    expect(idle.result.current.phase).toEqual({ kind: 'active' });
    advance(9 * MINUTE);
    expect(idle.result.current.phase).toEqual({ kind: 'warning', secondsLeft: 60 });
  });

  it("an idle tab with nothing to lose does not keep the other tab's session alive", async () => {
    const a = await openTab();
    const b = await openTab();
    // Tab A (no application, no agent) checks first each second; tab B has work at stake.
    run(a, () => false);
    const working = run(b, () => true);
    advance(30 * MINUTE);
    expect(working.result.current.phase).toEqual({ kind: 'expired' });
  });

  it('a reload (a new copy of the app) goes on from the time in the cookie', async () => {
    const at = Date.now() - 10 * MINUTE;
    document.cookie = `${LAST_ACCESS_COOKIE}=${at}; Path=/`;
    const reloaded = await openTab();
    expect(reloaded.store.useSessionStore.getState().lastAccess).toBe(at);
    const tab = run(reloaded, () => true);
    advance(19 * MINUTE);
    expect(tab.result.current.phase).toEqual({ kind: 'warning', secondsLeft: 60 });
  });
});
