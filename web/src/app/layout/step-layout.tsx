import { Outlet, useMatches } from 'react-router';
import { selectIsAuthorized, useAuthStore } from '@/features/auth/stores/auth-store';
import { ProgressSidebar } from '@/features/progress/components/progress-sidebar';
import { SaveForLater, offersSaveForLater } from '@/features/resume';
import { useFlowStore } from '@/lib/flow';
import { isStepRouteData } from '../route-handle';

/**
 * Default layout: progress sidebar (the flow as last read) beside the step page, and "Save and
 * finish later" under it where the flow offers it to a consumer.
 */
export function StepLayout() {
  const flow = useFlowStore((s) => s.flow);
  const isAgent = useAuthStore(selectIsAuthorized);
  const data = useMatches().at(-1)?.data;
  const current = isStepRouteData(data) ? data.step.id : null;
  const number = isStepRouteData(data) ? data.step.number : null;
  return (
    <div className="ds-l-container ef-steps">
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-md-col--3">
          <ProgressSidebar flow={flow} currentStep={current} />
        </div>
        <div className="ds-l-col--12 ds-l-md-col--9">
          <Outlet />
          {offersSaveForLater(flow, number, isAgent) && <SaveForLater />}
        </div>
      </div>
    </div>
  );
}
