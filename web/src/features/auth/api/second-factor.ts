import { apiClient } from '@/lib/api-client';
import type { CodeRequest, Enrolment, LoggedIn, SecondFactorStatus } from '@/types/api';

/** The login's second step: a code (or recovery code) for the password given on this session. */
export function loginWithCode(body: CodeRequest): Promise<LoggedIn> {
  return apiClient.post<LoggedIn>('/api/login/second-factor', body);
}

/** During a login that must set up an authenticator app: a new secret and its QR code. */
export function loginSetup(): Promise<Enrolment> {
  return apiClient.post<Enrolment>('/api/login/second-factor/setup');
}

export function getSecondFactor(): Promise<SecondFactorStatus> {
  return apiClient.get<SecondFactorStatus>('/api/user/second-factor');
}

/** A new secret to scan; it takes effect once `enableSecondFactor` confirms it. */
export function setupSecondFactor(): Promise<Enrolment> {
  return apiClient.post<Enrolment>('/api/user/second-factor/setup');
}

/**
 * Confirms the new app with its first code. Replacing an app that is on also takes a code from the
 * current app or a recovery code (`currentCode`): the password alone never replaces it.
 */
export function enableSecondFactor(
  password: string,
  code: string,
  currentCode?: string,
): Promise<{ recovery_codes: string[] }> {
  return apiClient.put<{ recovery_codes: string[] }>('/api/user/second-factor', {
    password,
    code,
    current_code: currentCode,
  });
}

/** Turns two-step verification off: the password and a code from the app or a recovery code. */
export function disableSecondFactor(password: string, currentCode: string): Promise<void> {
  return apiClient.delete<void>('/api/user/second-factor', { password, current_code: currentCode });
}

export function renewRecoveryCodes(code: string): Promise<{ recovery_codes: string[] }> {
  return apiClient.post<{ recovery_codes: string[] }>('/api/user/second-factor/recovery-codes', { code });
}

/** Proves the second factor again for this session (acting as an agent needs it within 15 minutes). */
export function verifySecondFactor(body: CodeRequest): Promise<void> {
  return apiClient.post<void>('/api/user/second-factor/verify', body);
}
