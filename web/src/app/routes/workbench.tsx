import { StepForm } from '@/features/step-form/components/step-form';
import { WorkbenchPage, type ConsumerFormProps } from '@/features/workbench';

/** The preview draws steps with the wizard's own form renderer (nothing is saved). */
export function ConsumerForm({ view, agentName, backend }: ConsumerFormProps) {
  return <StepForm view={view} applicationId={null} agentName={agentName} onSaved={() => {}} onNavigate={() => {}} backend={backend} />;
}

/** The rules workbench (/dashboard/rules), loaded on demand with the form renderer. */
export function WorkbenchRoute() {
  return <WorkbenchPage consumerForm={ConsumerForm} />;
}
