import { request } from '@/lib/api-client';
import type { StepSaved } from '@/types/api';

/**
 * PUT /api/application/step/{step}: saves the answers. 200 says where to go or which dialog to ask;
 * a 422 rejects with an ApiError whose `fieldErrors` is the errors map keyed by the spec's field keys.
 * `revision` is the application's revision the answers were given against (`If-Match`): a save
 * against a newer one is refused with 409 and saves nothing.
 */
export function saveStep(step: string, answers: unknown, revision?: number): Promise<StepSaved> {
  return request<StepSaved>(`/api/application/step/${encodeURIComponent(step)}`, {
    method: 'PUT',
    body: answers ?? {},
    headers: revision === undefined ? undefined : { 'If-Match': `"${revision}"` },
  });
}
