import { PlanCard } from '@/features/plans';
import { StepForm } from '@/features/step-form/components/step-form';
import { WorkbenchPage, type ConsumerFormProps, type ConsumerPlansProps } from '@/features/workbench';

const nothing = () => {};

/** The preview draws steps with the wizard's own form renderer (nothing is saved). */
export function ConsumerForm({ view, agentName, backend }: ConsumerFormProps) {
  return <StepForm view={view} applicationId={null} agentName={agentName} onSaved={nothing} onNavigate={nothing} backend={backend} />;
}

/** A plan page's plans for the sample household, on the plan pages' own cards (read only). */
export function ConsumerPlans({ plans }: ConsumerPlansProps) {
  return (
    <div className="ef-plans">
      <div className="ef-plans__list">
        {plans.plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            householdSize={plans.household_size}
            selected={plan.selected}
            compared={false}
            compareDisabled
            onCompareChange={nothing}
            addHsa={null}
            onAddHsaChange={nothing}
            busy
            saving={false}
            onChoose={nothing}
          />
        ))}
      </div>
    </div>
  );
}

/** The rules workbench (/dashboard/rules), loaded on demand with the form renderer. */
export function WorkbenchRoute() {
  return <WorkbenchPage consumerForm={ConsumerForm} consumerPlans={ConsumerPlans} />;
}
