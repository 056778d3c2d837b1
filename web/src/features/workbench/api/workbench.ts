import { apiClient } from '@/lib/api-client';
import type {
  ImpactReport,
  PreviewRequest,
  PreviewResult,
  PreviewSteps,
  Publication,
  RulesReport,
  RulesStatus,
  SetFile,
} from '@/types/api';

// The rules workbench's calls (analysts and admins; the server answers 403 to anyone else).

/** GET /api/admin/rules/status: the set serving now, where it comes from, the newest problems. */
export function getRulesStatus(): Promise<RulesStatus> {
  return apiClient.get<RulesStatus>('/api/admin/rules/status');
}

/** GET /api/admin/rules/sets: the publications, newest first (the first is serving). */
export function getPublications(): Promise<Publication[]> {
  return apiClient.get<Publication[]>('/api/admin/rules/sets');
}

/** GET /api/admin/rules/files: every file of the serving set. */
export function getSetFiles(): Promise<SetFile[]> {
  return apiClient.get<SetFile[]>('/api/admin/rules/files');
}

/** GET /api/admin/rules/report: the scenario results and the coverage of the serving set. */
export function getRulesReport(): Promise<RulesReport> {
  return apiClient.get<RulesReport>('/api/admin/rules/report');
}

/** A draft: its files, or a git revision of the server's checkout. */
export type DraftSource = { files: SetFile[] } | { rev: string };

/** POST /api/admin/rules/impact: what a draft changes against the serving set (nothing is saved). */
export function getImpact(draft: DraftSource): Promise<ImpactReport> {
  return apiClient.post<ImpactReport>('/api/admin/rules/impact', draft);
}

/** POST /api/admin/rules/publish: the draft serves on every instance serving from the database. */
export function publishDraft(draft: DraftSource, note: string): Promise<Publication> {
  return apiClient.post<Publication>('/api/admin/rules/publish', { ...draft, note: note.trim() || null });
}

/** POST /api/admin/rules/rollback: an earlier set serves again. */
export function rollbackTo(hash: string): Promise<Publication> {
  return apiClient.post<Publication>('/api/admin/rules/rollback', { hash });
}

/** GET /api/admin/rules/preview: the steps and the catalog's carrier flags. */
export function getPreviewSteps(): Promise<PreviewSteps> {
  return apiClient.get<PreviewSteps>('/api/admin/rules/preview');
}

/** POST /api/admin/rules/preview: a step's view in a context, and the verdict on sample answers. */
export function previewStepIn(request: PreviewRequest): Promise<PreviewResult> {
  return apiClient.post<PreviewResult>('/api/admin/rules/preview', request);
}
