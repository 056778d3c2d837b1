import { apiClient, request } from '@/lib/api-client';
import type {
  ImpactReport,
  PreviewRequest,
  PreviewResult,
  PreviewSteps,
  Proposal,
  ProposalDetail,
  Publication,
  RulesReport,
  RulesStatus,
  SetFile,
} from '@/types/api';

// The rules workbench's calls (analysts and admins; the server answers 403 to anyone else).
// Deciding, cancelling and rolling back answer 403 with a reason (the author approving their own
// change, no approve permission): shown on the page, not a trip to the site root.

/** A POST whose 403 is a refusal to show. */
const decide = <T>(path: string, body: unknown = {}) => request<T>(path, { method: 'POST', body, refusals: true });

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

/**
 * POST /api/admin/rules/proposals: the draft kept with its note, its diff against the set serving
 * and its evidence (the impact, the suites' result, the coverage) until someone else with the
 * approve permission approves or rejects it. Nothing is published.
 */
export function proposeDraft(draft: DraftSource, note: string): Promise<ProposalDetail> {
  return apiClient.post<ProposalDetail>('/api/admin/rules/proposals', { ...draft, note: note.trim() });
}

/** GET /api/admin/rules/proposals: the proposals, newest first. */
export function getProposals(): Promise<Proposal[]> {
  return apiClient.get<Proposal[]>('/api/admin/rules/proposals');
}

/** GET /api/admin/rules/proposals/{id}: a proposal with its diff file by file. */
export function getProposal(id: number): Promise<ProposalDetail> {
  return apiClient.get<ProposalDetail>(`/api/admin/rules/proposals/${id}`);
}

/**
 * POST /api/admin/rules/proposals/{id}/approve: published at once, or from `effectiveFrom`
 * (`YYYY-MM-DDTHH:MM` on Michigan's clock) when given.
 */
export function approveProposal(id: number, effectiveFrom?: string): Promise<Publication> {
  const from = effectiveFrom?.trim();
  return decide<Publication>(`/api/admin/rules/proposals/${id}/approve`, from ? { effective_from: from } : {});
}

/** POST /api/admin/rules/proposals/{id}/reject: refused, with the reason the author reads. */
export function rejectProposal(id: number, reason: string): Promise<Proposal> {
  return decide<Proposal>(`/api/admin/rules/proposals/${id}/reject`, { reason: reason.trim() });
}

/** POST /api/admin/rules/proposals/{id}/withdraw: its author takes it back. */
export function withdrawProposal(id: number): Promise<Proposal> {
  return decide<Proposal>(`/api/admin/rules/proposals/${id}/withdraw`);
}

/** GET /api/admin/rules/scheduled: approved sets that take effect later, soonest first. */
export function getScheduled(): Promise<Publication[]> {
  return apiClient.get<Publication[]>('/api/admin/rules/scheduled');
}

/** POST /api/admin/rules/scheduled/{id}/cancel: the scheduled set will not take effect. */
export function cancelScheduled(id: number): Promise<{ cancelled: number }> {
  return decide<{ cancelled: number }>(`/api/admin/rules/scheduled/${id}/cancel`);
}

/** POST /api/admin/rules/rollback: an earlier set serves again (the approve permission). */
export function rollbackTo(hash: string): Promise<Publication> {
  return decide<Publication>('/api/admin/rules/rollback', { hash });
}

/** GET /api/admin/rules/preview: the steps and the catalog's carrier flags. */
export function getPreviewSteps(): Promise<PreviewSteps> {
  return apiClient.get<PreviewSteps>('/api/admin/rules/preview');
}

/** POST /api/admin/rules/preview: a step's view in a context, and the verdict on sample answers. */
export function previewStepIn(request: PreviewRequest): Promise<PreviewResult> {
  return apiClient.post<PreviewResult>('/api/admin/rules/preview', request);
}
