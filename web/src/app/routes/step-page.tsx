import type { Step } from '@/lib/steps';

/** Placeholder for an enrollment step until its form or page is built. */
export function StepPage({ step }: { step: Step }) {
  return (
    <div className="ef-step">
      <h1 className="ds-text-heading--2xl">{step.title}</h1>
      <p>This step is not available yet.</p>
    </div>
  );
}
