import { apiClient } from '@/lib/api-client';
import type { UploadedDocument } from '@/types/api';

/**
 * Uploads a document (multipart, field `file`) to the address its field names (`x-upload.url`,
 * e.g. POST /api/whyapplying/fileupload), once the step is saved.
 */
export function uploadDocument(url: string, file: File): Promise<UploadedDocument> {
  const body = new FormData();
  body.append('file', file, file.name);
  return apiClient.postForm<UploadedDocument>(url, body);
}
