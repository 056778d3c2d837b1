import { apiClient } from '@/lib/api-client';
import type { LegalDocument } from '@/types/api';

export type LegalKind = 'privacy' | 'terms';

/** Privacy Policy or Terms of Use, rendered by the server from its templates. */
export function getLegalDocument(kind: LegalKind): Promise<LegalDocument> {
  return apiClient.get<LegalDocument>(`/api/legal/${kind}`);
}
