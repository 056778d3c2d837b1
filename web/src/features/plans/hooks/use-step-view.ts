import type { StepView } from '@/types/api';
import { getStepView } from '../api/get-step-view';
import { useRemote, type Remote } from './use-remote';

/** The step's view: the one given by the caller, or fetched. */
export function useStepView(stepId: string, given: StepView | null | undefined): Remote<StepView> {
  const fetched = useRemote(given ? null : `view:${stepId}`, (signal) => getStepView(stepId, signal));
  return given ? { data: given, error: null, loading: false } : fetched;
}
