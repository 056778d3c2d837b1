import type { StepId } from '@/lib/steps';

/**
 * Route meta (spec part 1, 2.1): title, layout, and whether the Presented by button shows.
 * Layouts: `full` (full page in the centred container), `fluid` (full page, the container as wide
 * as the window: the dashboard), `default` (the step layout).
 */
export interface RouteHandle {
  title: string;
  layout: 'full' | 'fluid' | 'default';
  step?: StepId;
  /** Root and dashboard-home show no Presented by button. */
  hidePresentedBy?: boolean;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'title' in value && 'layout' in value;
}
