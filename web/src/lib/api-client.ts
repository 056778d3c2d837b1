// The one way the app talks to the server: same-origin JSON with the session cookie.
//
// - Non-GET requests carry the session's CSRF token in `X-CSRF-Token`.
// - Any 403 or 419 sends the browser to the site root (spec part 1, 2.2 and 8), except a 419
//   "replaced": the request left with the cookie of a session that a login, an impersonation or a
//   switch back (in this tab or another) has just replaced. It is sent again once, after a moment,
//   with the browser's newer cookie and token.
// - Every successful response counts as activity for the idle-session timer.
// The token source and the activity hook are wired in src/app, so this file imports no feature.
// Texts the client writes itself are catalog messages (descriptors), translated where they are
// shown (`errorText`); the server's messages come already in the session's language.

import type { I18n, MessageDescriptor } from '@lingui/core';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors | null;
  /** A refusal of the whole submission (spec part 2, 7 and 8: a purchase's `submit_error`). */
  readonly submitError: string | null;
  /** 419 `{"session": "replaced"}`: see `isSessionReplaced`. */
  readonly sessionReplaced: boolean;
  /** 403 `{"second_factor": "required"}`: the call needs a fresh authenticator code first. */
  readonly secondFactorNeeded: boolean;
  /**
   * The client's own text when the server gave none (a catalog message: show it with `errorText`);
   * null when `message` is the server's. `message` is then its English text.
   */
  readonly clientMessage: MessageDescriptor | null;

  constructor(
    status: number,
    message: string | MessageDescriptor,
    fieldErrors: FieldErrors | null = null,
    submitError: string | null = null,
    sessionReplaced = false,
    secondFactorNeeded = false,
  ) {
    super(typeof message === 'string' ? message : message.id);
    this.name = 'ApiError';
    this.clientMessage = typeof message === 'string' ? null : message;
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.submitError = submitError;
    this.sessionReplaced = sessionReplaced;
    this.secondFactorNeeded = secondFactorNeeded;
  }
}

export const GENERIC_ERROR = /*i18n*/ { id: 'Something went wrong!' };
const SESSION_REPLACED = /*i18n*/ { id: 'Your session has been replaced' };
const SESSION_EXPIRED = /*i18n*/ { id: 'Your session has expired' };
const FORBIDDEN = /*i18n*/ { id: 'Forbidden' };

/**
 * The text to show for a failed call, in the page's language: the server's message (it answers in
 * the session's language), the client's own text through the catalogs, else `fallback`.
 */
export function errorText(error: unknown, i18n: I18n, fallback: MessageDescriptor = GENERIC_ERROR): string {
  if (error instanceof ApiError) {
    if (error.clientMessage) return i18n._(error.clientMessage);
    if (error.message) return error.message;
  }
  return i18n._(fallback);
}

interface ApiClientConfig {
  csrfToken: () => string | null | undefined;
  onSuccess: () => void;
  redirectToRoot: () => void;
}

const defaults: ApiClientConfig = {
  csrfToken: () => null,
  onSuccess: () => {},
  redirectToRoot: () => window.location.assign('/'),
};

let config: ApiClientConfig = { ...defaults };

export function configureApiClient(partial: Partial<ApiClientConfig>): void {
  config = { ...config, ...partial };
}

export function resetApiClient(): void {
  config = { ...defaults };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Background calls (analytics): a 403/419 is an error like any other, not a trip to the root. */
  quiet?: boolean;
  /**
   * A 403 is a refusal to show (its `error` says why: the author approving their own change, a
   * missing permission), not a trip to the root. A 419 still goes there.
   */
  refusals?: boolean;
  /** Send the CSRF header on a GET too. */
  csrf?: boolean;
  /** More request headers (a save's `If-Match`). */
  headers?: Record<string, string>;
}

/** How long to wait before sending again a request answered "session replaced". */
export const REPLACED_RETRY_MS = 250;

/** A 419 whose session was replaced a moment ago (not an expired one). */
export function isSessionReplaced(e: ApiError): boolean {
  return e.status === 419 && e.sessionReplaced;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function readError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (body && typeof body === 'object') {
    const { error, errors, submit_error: refusal } = body as { error?: unknown; errors?: unknown; submit_error?: unknown };
    const submitError = typeof refusal === 'string' && refusal !== '' ? refusal : null;
    if (errors && typeof errors === 'object') {
      const fieldErrors = errors as FieldErrors;
      const first = Object.values(fieldErrors).flat()[0];
      return new ApiError(response.status, typeof error === 'string' ? error : (submitError ?? first ?? GENERIC_ERROR), fieldErrors, submitError);
    }
    if (typeof error === 'string') return new ApiError(response.status, error, null, submitError);
    if (submitError) return new ApiError(response.status, submitError, null, submitError);
  }
  return new ApiError(response.status, GENERIC_ERROR);
}

async function replaced(response: Response): Promise<boolean> {
  if (response.status !== 419) return false;
  try {
    const body = (await response.clone().json()) as { session?: unknown } | null;
    return body?.session === 'replaced';
  } catch {
    return false;
  }
}

/** A 403 asking for the person's second factor (impersonating an agent): the caller asks for a code. */
async function secondFactorNeeded(response: Response): Promise<string | MessageDescriptor | null> {
  if (response.status !== 403) return null;
  try {
    const body = (await response.clone().json()) as { second_factor?: unknown; error?: unknown } | null;
    if (body?.second_factor !== 'required') return null;
    return typeof body.error === 'string' ? body.error : GENERIC_ERROR;
  } catch {
    return null;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let response = await send(path, options);
  if (await replaced(response)) {
    await wait(REPLACED_RETRY_MS);
    response = await send(path, options);
    if (await replaced(response)) {
      // This browser never got the newer cookie: the site root starts over (get-auth-state renews).
      if (!options.quiet) config.redirectToRoot();
      throw new ApiError(419, SESSION_REPLACED, null, null, true);
    }
  }
  const needsCode = await secondFactorNeeded(response);
  if (needsCode !== null) throw new ApiError(403, needsCode, null, null, false, true);
  if (response.status === 403 && options.refusals) throw await readError(response);
  if ((response.status === 403 || response.status === 419) && !options.quiet) {
    config.redirectToRoot();
    throw new ApiError(response.status, response.status === 419 ? SESSION_EXPIRED : FORBIDDEN);
  }
  if (!response.ok) throw await readError(response);

  config.onSuccess();
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // A FormData body (file upload) is sent as multipart; the browser writes its Content-Type.
  const multipart = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' || options.csrf) {
    const token = config.csrfToken();
    if (token) headers['X-CSRF-Token'] = token;
  }

  return fetch(withQuery(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
    signal: options.signal,
  });
}

export const apiClient = {
  get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) => request<T>(path, options),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body }),
  /** POST multipart form data (a file upload), with the CSRF header like any other change. */
  postForm: <T>(path: string, body: FormData) => request<T>(path, { method: 'POST', body }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
};

/**
 * GET a file (a PDF sheet) under the same rules as `request`: 403/419 send the browser to the site
 * root, other failures throw an ApiError, success counts as activity.
 */
export async function requestBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await fetch(path, { credentials: 'same-origin', signal: options.signal });
  if (response.status === 403 || response.status === 419) {
    config.redirectToRoot();
    throw new ApiError(response.status, response.status === 419 ? SESSION_EXPIRED : FORBIDDEN);
  }
  if (!response.ok) throw await readError(response);
  config.onSuccess();
  return response.blob();
}
