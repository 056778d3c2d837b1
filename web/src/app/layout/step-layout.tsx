import { Outlet, useMatches } from 'react-router';
import { ProgressSidebar } from '@/features/progress/components/progress-sidebar';
import { useFlowStore } from '@/lib/flow';
import { isStepRouteData } from '../route-handle';

/** Default layout: progress sidebar (the flow as last read) beside the step page. */
export function StepLayout() {
  const flow = useFlowStore((s) => s.flow);
  const data = useMatches().at(-1)?.data;
  const current = isStepRouteData(data) ? data.step.id : null;
  return (
    <div className="ds-l-container ef-steps">
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-md-col--3">
          <ProgressSidebar flow={flow} currentStep={current} />
        </div>
        <div className="ds-l-col--12 ds-l-md-col--9">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
