import { requestBlob } from '@/lib/api-client';
import type { PlanType } from '../types';

/**
 * GET /api/printPdf/{type}/{flag}[/{filters}]: the comparison sheet (compare.pdf). `all` asks for the
 * medical, dental and vision sheet; the tokens narrow this plan type's plans.
 */
export function printComparison(planType: PlanType, all: boolean, tokens: readonly string[]): Promise<Blob> {
  const base = `/api/printPdf/${planType}/${all ? 'true' : 'false'}`;
  return requestBlob(tokens.length ? `${base}/${encodeURIComponent(tokens.join(','))}` : base);
}

/** GET /api/printSelectionPdf: the benefit selection sheet (benefits.pdf). */
export function printBenefitSelection(): Promise<Blob> {
  return requestBlob('/api/printSelectionPdf');
}
