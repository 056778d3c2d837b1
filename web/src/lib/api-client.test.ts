import { setupI18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiClient, configureApiClient, errorText, GENERIC_ERROR, REPLACED_RETRY_MS, request, resetApiClient } from './api-client';

function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('apiClient', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const redirectToRoot = vi.fn();
  const onSuccess = vi.fn();

  beforeEach(() => {
    fetchMock.mockReset();
    redirectToRoot.mockReset();
    onSuccess.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ csrfToken: () => 'tok-123', redirectToRoot, onSuccess });
  });

  afterEach(() => resetApiClient());

  const sentHeaders = (call = 0): Record<string, string> =>
    (fetchMock.mock.calls[call]?.[1]?.headers ?? {}) as Record<string, string>;

  it('sends same-origin credentials and parses JSON', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: 1 }));
    await expect(apiClient.get('/api/site')).resolves.toEqual({ ok: 1 });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/site');
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('same-origin');
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('adds query parameters', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { application: null }));
    await apiClient.get('/api/get-auth-state', { query: { renew: true } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/get-auth-state?renew=true');
  });

  it('sends the CSRF token on non-GET requests only', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    await apiClient.get('/api/site');
    await apiClient.post('/api/logout');
    await apiClient.put('/api/x', { a: 1 });
    expect(sentHeaders(0)['X-CSRF-Token']).toBeUndefined();
    expect(sentHeaders(1)['X-CSRF-Token']).toBe('tok-123');
    expect(sentHeaders(2)['X-CSRF-Token']).toBe('tok-123');
    expect(sentHeaders(2)['Content-Type']).toBe('application/json');
    expect(fetchMock.mock.calls[2]?.[1]?.body).toBe('{"a":1}');
  });

  it('sends the CSRF token on a GET that asks for it', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    await apiClient.get('/api/site', { csrf: true });
    expect(sentHeaders(0)['X-CSRF-Token']).toBe('tok-123');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('GET');
  });

  it('sends a request again, once, when its session was replaced a moment ago (a login in flight)', async () => {
    vi.useFakeTimers();
    try {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(419, { error: 'Your session has been replaced', session: 'replaced' }))
        .mockResolvedValueOnce(jsonResponse(200, { application: null }));
      const answer = apiClient.get('/api/application/active');
      await vi.advanceTimersByTimeAsync(REPLACED_RETRY_MS);
      await expect(answer).resolves.toEqual({ application: null });
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(redirectToRoot).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('goes to the site root when a request is still "replaced" the second time (the new cookie never came)', async () => {
    vi.useFakeTimers();
    try {
      fetchMock.mockImplementation(async () => jsonResponse(419, { error: 'replaced', session: 'replaced' }));
      const answer = apiClient.get('/api/application/active').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(REPLACED_RETRY_MS);
      expect(await answer).toMatchObject({ status: 419, sessionReplaced: true });
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(redirectToRoot).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not send again a request whose session simply expired', async () => {
    fetchMock.mockResolvedValue(jsonResponse(419, { error: 'Your session has expired' }));
    await expect(apiClient.get('/api/application/active')).rejects.toMatchObject({ status: 419, sessionReplaced: false });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(redirectToRoot).toHaveBeenCalledTimes(1);
  });

  it('posts a file upload as multipart with the CSRF token and no JSON content type', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { document_id: 'd1', file_name: 'a.pdf' }));
    const body = new FormData();
    body.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'a.pdf');
    await expect(apiClient.postForm('/api/application/document', body)).resolves.toEqual({
      document_id: 'd1',
      file_name: 'a.pdf',
    });
    expect(sentHeaders()['X-CSRF-Token']).toBe('tok-123');
    expect(sentHeaders()['Content-Type']).toBeUndefined();
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(body);
  });

  it.each([403, 419])('sends the browser to the site root on %i', async (status) => {
    fetchMock.mockResolvedValue(jsonResponse(status, { error: 'no' }));
    await expect(apiClient.get('/api/anything')).rejects.toBeInstanceOf(ApiError);
    expect(redirectToRoot).toHaveBeenCalledTimes(1);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it("throws a refusal's 403 with the server's reason, without going to the root; a 419 still goes", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(403, { error: 'You proposed this change.' }));
    await expect(request('/api/admin/rules/proposals/1/approve', { method: 'POST', body: {}, refusals: true })).rejects.toMatchObject({
      status: 403,
      message: 'You proposed this change.',
    });
    expect(redirectToRoot).not.toHaveBeenCalled();
    fetchMock.mockResolvedValueOnce(jsonResponse(419, { error: 'Your session has expired' }));
    await expect(request('/api/admin/rules/proposals/1/approve', { method: 'POST', body: {}, refusals: true })).rejects.toMatchObject({ status: 419 });
    expect(redirectToRoot).toHaveBeenCalledTimes(1);
  });

  it('redirects with window.location.assign("/") by default', async () => {
    resetApiClient();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fetchMock.mockResolvedValue(jsonResponse(419));
    await expect(apiClient.post('/api/logout')).rejects.toMatchObject({ status: 419 });
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('does not redirect on other errors and surfaces the server message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { error: 'agent not found' }));
    await expect(apiClient.get('/api/agent_branding/nosuch')).rejects.toMatchObject({
      status: 404,
      message: 'agent not found',
    });
    expect(redirectToRoot).not.toHaveBeenCalled();
  });

  it('keeps the field errors of a 422', async () => {
    fetchMock.mockResolvedValue(jsonResponse(422, { errors: { sub_first_name: ['is required'] } }));
    const error = await apiClient.put('/api/census', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual({ sub_first_name: ['is required'] });
  });

  // Spec part 2, 7: "PUT rap | purchase payload | purchase; response may carry submit_error".
  it("keeps a purchase refusal's submit_error, with or without field errors", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(422, { submit_error: 'The coverage start date has passed.' }));
    const refused = await apiClient.put('/api/application/step/rap', {}).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, submitError: 'The coverage start date has passed.', fieldErrors: null });
    fetchMock.mockResolvedValueOnce(jsonResponse(422, { submit_error: 'No.', errors: { agree_tc: ['Required.'] } }));
    const both = await apiClient.put('/api/application/step/rap', {}).catch((e: unknown) => e);
    expect(both).toMatchObject({ submitError: 'No.', fieldErrors: { agree_tc: ['Required.'] } });
  });

  it('falls back to a generic message when the body is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('boom', { status: 500 }));
    await expect(apiClient.get('/api/site')).rejects.toMatchObject({ status: 500, message: 'Something went wrong!' });
  });

  it("shows the server's message as it is, and the client's own text in the page's language", async () => {
    const spanish = setupI18n({ locale: 'es', messages: { es: { 'Something went wrong!': '¡Algo salió mal!', 'Try later': 'Más tarde' } } });
    fetchMock.mockResolvedValueOnce(new Response('boom', { status: 502 }));
    const generic = await apiClient.get('/api/site').catch((e: unknown) => e);
    expect(generic).toMatchObject({ message: GENERIC_ERROR.id, clientMessage: GENERIC_ERROR });
    expect(errorText(generic, spanish)).toBe('¡Algo salió mal!');
    fetchMock.mockResolvedValueOnce(jsonResponse(404, { error: 'Agente no encontrado' }));
    const server = await apiClient.get('/api/agent_branding/nosuch').catch((e: unknown) => e);
    expect(server).toMatchObject({ clientMessage: null });
    expect(errorText(server, spanish)).toBe('Agente no encontrado');
    expect(errorText(new TypeError('Failed to fetch'), spanish)).toBe('¡Algo salió mal!');
    expect(errorText(new TypeError('Failed to fetch'), spanish, { id: 'Try later' })).toBe('Más tarde');
  });

  it('returns undefined for 204', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(apiClient.post('/api/application/timeout')).resolves.toBeUndefined();
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });
});
