import { afterEach, describe, expect, it, vi } from 'vitest';
import { GENERIC_ERROR } from '@/lib/api-client';
import { BRANDING_FAILED, useSiteStore } from './site-store';

// Spec part 1, 8: 'Branding load failure | generic "Failed to fetch agent branding" or "Something
// went wrong!" stored'.
describe('the site store when the branding cannot be loaded', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useSiteStore.setState({ site: null, error: null });
  });

  it('stores "Failed to fetch agent branding" when the server refuses, "Something went wrong!" when nothing answers', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":"Agent not found"}', { status: 404, headers: { 'Content-Type': 'application/json' } })));
    expect(await useSiteStore.getState().load()).toBeNull();
    expect(useSiteStore.getState().error).toBe(BRANDING_FAILED);
    expect(BRANDING_FAILED.id).toBe('Failed to fetch agent branding');

    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await useSiteStore.getState().load()).toBeNull();
    expect(useSiteStore.getState().error).toBe(GENERIC_ERROR);
    expect(GENERIC_ERROR.id).toBe('Something went wrong!');
  });

  it("stores the branding failure when another agent's branding cannot be loaded", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":"Agent not found"}', { status: 404, headers: { 'Content-Type': 'application/json' } })));
    expect(await useSiteStore.getState().loadBranding('nobody')).toBeNull();
    expect(useSiteStore.getState().error).toBe(BRANDING_FAILED);
  });
});
