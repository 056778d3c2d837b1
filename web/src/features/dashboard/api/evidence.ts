import { apiClient, requestBlob } from '@/lib/api-client';
import type { Evidence } from '../types';

/** GET /api/dashboard/evidence/{id}: whether a submission's evidence packet is ready to download. */
export function getEvidence(applicationId: string): Promise<Evidence> {
  return apiClient.get<Evidence>(`/api/dashboard/evidence/${encodeURIComponent(applicationId)}`);
}

/** The packet's PDF or its JSON twin, as stored at the purchase. */
export function downloadEvidence(applicationId: string, format: 'pdf' | 'json'): Promise<Blob> {
  const route = format === 'pdf' ? 'evidencePdf' : 'evidenceJson';
  return requestBlob(`/api/dashboard/${route}/${encodeURIComponent(applicationId)}`);
}

/** The downloaded file's name: `evidence-{confirmation}.pdf` or `.json`. */
export function evidenceFileName(confirmation: string, format: 'pdf' | 'json'): string {
  return `evidence-${confirmation}.${format}`;
}
