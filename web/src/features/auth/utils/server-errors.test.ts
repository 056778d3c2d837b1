import { describe, expect, it } from 'vitest';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import { shownErrors } from './server-errors';

const KEYS = { login_email: 'email', login_password: 'password' } as const;

describe('shownErrors', () => {
  it('puts the server errors map under the fields by key', () => {
    const error = new ApiError(422, 'x', { login_password: ['These credentials do not match our records.'] });
    expect(shownErrors(error, KEYS)).toEqual({
      fields: { password: 'These credentials do not match our records.' },
      other: [],
    });
  });

  it('joins several messages for a field and lists keys without a field above the form', () => {
    const error = new ApiError(422, 'x', {
      login_email: ['The email field is required.', 'Really.'],
      token: ['Sorry, the link you used is no longer valid.'],
    });
    expect(shownErrors(error, KEYS)).toEqual({
      fields: { email: 'The email field is required. Really.' },
      other: ['Sorry, the link you used is no longer valid.'],
    });
  });

  it('shows the message of an error without a map (429) and a generic one for anything else', () => {
    expect(shownErrors(new ApiError(429, 'Too many attempts. Please wait a moment and try again.'), KEYS)).toEqual({
      fields: {},
      other: ['Too many attempts. Please wait a moment and try again.'],
    });
    expect(shownErrors(new TypeError('Failed to fetch'), KEYS)).toEqual({ fields: {}, other: [GENERIC_ERROR.id] });
  });

  it('ignores inherited keys such as toString', () => {
    const error = new ApiError(422, 'x', { toString: ['odd'] });
    expect(shownErrors(error, KEYS)).toEqual({ fields: {}, other: ['odd'] });
  });
});
