import { apiClient } from '@/lib/api-client';
import type { LegalDocument } from '@/types/api';

/** A text the server renders from its templates (`{ title, html }`), for a form file's `document:` link. */
export function getDocument(path: string): Promise<LegalDocument> {
  return apiClient.get<LegalDocument>(path);
}
