import { apiClient } from '@/lib/api-client';
import type { Rechecked } from '../types';

/** Uses an e-mailed resume link: the application becomes this browser's, checked again under today's rules. */
export function resumeApplication(token: string): Promise<Rechecked> {
  return apiClient.post<Rechecked>('/api/application/resume', { token });
}
