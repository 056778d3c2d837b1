import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, configureApiClient, requestBlob, resetApiClient } from './api-client';

describe('requestBlob', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const redirectToRoot = vi.fn();
  const onSuccess = vi.fn();

  beforeEach(() => {
    fetchMock.mockReset();
    redirectToRoot.mockReset();
    onSuccess.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok', redirectToRoot, onSuccess });
  });

  afterEach(() => resetApiClient());

  it('returns the file and counts as activity', async () => {
    fetchMock.mockResolvedValue(new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf' } }));
    const blob = await requestBlob('/api/printSelectionPdf');
    expect(await blob.text()).toBe('%PDF-1.7');
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('same-origin');
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('sends the browser to the root on 403 and 419', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 419 }));
    await expect(requestBlob('/api/printSelectionPdf')).rejects.toBeInstanceOf(ApiError);
    expect(redirectToRoot).toHaveBeenCalledTimes(1);
  });

  it('throws the server message on other failures', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ error: 'A filter token is not valid' }), { status: 400 }));
    await expect(requestBlob('/api/printPdf/1/false/x')).rejects.toMatchObject({ status: 400, message: 'A filter token is not valid' });
    expect(onSuccess).not.toHaveBeenCalled();
  });
});
