import type { StepId } from '@/lib/steps';

/** Route meta (spec part 1, 2.1): title, layout, and whether the Presented by button shows. */
export interface RouteHandle {
  title: string;
  layout: 'full' | 'default';
  step?: StepId;
  /** Root and dashboard-home show no Presented by button. */
  hidePresentedBy?: boolean;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'title' in value && 'layout' in value;
}
