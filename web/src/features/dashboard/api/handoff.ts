import { apiClient } from '@/lib/api-client';
import type { Handoff } from '../types';

const path = (applicationId: string) => `/api/dashboard/handoff/${encodeURIComponent(applicationId)}`;

/** GET /api/dashboard/handoff/{id}: the application's newest hand-off (null: none). */
export function getHandoff(applicationId: string): Promise<Handoff | null> {
  return apiClient.get<Handoff | null>(path(applicationId));
}

/**
 * POST: e-mails the customer a link to finish, sign and purchase (an earlier one stops working),
 * written in `language` (the customer's).
 */
export function sendHandoff(applicationId: string, email: string, language: string): Promise<Handoff> {
  return apiClient.post<Handoff>(path(applicationId), { email, language });
}

/** DELETE: withdraws the unopened link. */
export function revokeHandoff(applicationId: string): Promise<Handoff | null> {
  return apiClient.delete<Handoff | null>(path(applicationId));
}
