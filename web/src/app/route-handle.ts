import type { MessageDescriptor } from '@lingui/core';
import type { FlowStep } from '@/lib/flow';

/**
 * Route meta (spec part 1, 2.1): title, layout, and whether the Presented by button shows.
 * Layouts: `full` (full page in the centred container), `fluid` (full page, the container as wide
 * as the window: the dashboard), `default` (the step layout).
 */
export interface RouteHandle {
  /** In English, as a message of the catalogs (a step's title is its flow step's instead). */
  title: MessageDescriptor;
  layout: 'full' | 'fluid' | 'default';
  /** Root and dashboard-home show no Presented by button. */
  hidePresentedBy?: boolean;
}

/** What a step route's loader gives its page: the step, from the flow just read. */
export interface StepRouteData {
  step: FlowStep;
}

export function isStepRouteData(value: unknown): value is StepRouteData {
  return typeof value === 'object' && value !== null && 'step' in value;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'title' in value && 'layout' in value;
}
