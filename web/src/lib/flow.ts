// The wizard's shape, as the server's flow gives it (GET /api/flow, from
// rules/flows/enrollment.flow.yaml): the step routes, the progress list and the guards are built
// from it, so a step added, renamed or skipped in the flow needs no web build. It is read again on
// every step navigation, so an edit of the flow is live in an open browser.

import { create } from 'zustand';
import type { components } from '@/types/openapi.gen';
import { apiClient } from './api-client';

export type Flow = components['schemas']['Flow'];
export type FlowStep = components['schemas']['FlowStep'];

export function getFlow(signal?: AbortSignal): Promise<Flow> {
  return apiClient.get<Flow>('/api/flow', { signal });
}

/** The step at an address (`/subInfo`; case as the router matches it, so any). */
export function stepAtPath(flow: Flow, pathname: string): FlowStep | undefined {
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  return flow.steps.find((s) => s.route.toLowerCase() === path);
}

/** Where a new application starts: the first step that is always open (else the first step). */
export function firstStep(flow: Flow): FlowStep | undefined {
  return flow.steps.find((s) => s.always_valid) ?? flow.steps[0];
}

/** The step a submitted application may open. */
export function submittedStep(flow: Flow): FlowStep | undefined {
  return flow.steps.find((s) => s.id === flow.submitted_step);
}

/** The last step with a number at most `n` (Continue goes there); the first step below them all. */
export function stepOfNumber(flow: Flow, n: number): FlowStep | undefined {
  return flow.steps.filter((s) => s.number <= n).at(-1) ?? flow.steps[0];
}

/** A plan page of the flow by plan type (1 medical, 2 dental, 3 vision). */
export function planStep(flow: Flow, planType: number): FlowStep | undefined {
  return flow.steps.find((s) => s.kind === 'plans' && s.params.plan_type === planType);
}

interface FlowStore {
  flow: Flow | null;
  /** Reads the flow again (for the session's application as it is now); null when it cannot. */
  load: () => Promise<Flow | null>;
}

export const useFlowStore = create<FlowStore>()((set) => ({
  flow: null,
  load: async () => {
    try {
      const flow = await getFlow();
      set({ flow });
      return flow;
    } catch {
      return null;
    }
  },
}));
