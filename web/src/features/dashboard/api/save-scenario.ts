import { requestBlob } from '@/lib/api-client';

export const SCENARIO_FILE_NAME = 'application-scenario.yaml';

/**
 * GET /api/dashboard/scenario/{id}: the application as a YAML scenario suite (its steps replayed,
 * every personal detail made up, each outcome the expectation), for `enrollflow scenarios`.
 */
export function downloadScenario(applicationId: string): Promise<Blob> {
  return requestBlob(`/api/dashboard/scenario/${encodeURIComponent(applicationId)}`);
}
