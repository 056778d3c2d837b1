import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Spinner } from '@cmsgov/design-system';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSiteStore } from '@/features/site/stores/site-store';
import { getStepView } from '@/features/step-form/api/get-step-view';
import type { FlowStep } from '@/lib/flow';
import type { Application, StepSaved, StepView } from '@/types/api';

// An enrollment step: the server's view says what the step is (`kind`), and the page loads its code:
// - "form" (a flow step with `form:`): the generic form renderer, loaded on demand with RJSF;
// - a page name (a flow step with `page:`, e.g. "plans", "review"): that hand-built page.

/** What a hand-built page gets. */
export interface StepPageProps {
  step: FlowStep;
  view: StepView;
  /** A logged-in agent. */
  authenticated: boolean;
  /** Store the application a save answered with (skip flags, last step for the progress sidebar). */
  onApplicationChange: (application: Application) => void;
}

const StepForm = lazy(() => import('@/features/step-form/components/step-form'));
const PlansPage = lazy(() => import('@/features/plans').then((m) => ({ default: m.PlansPage })));
const ReviewSelectionsPage = lazy(() => import('@/features/plans').then((m) => ({ default: m.ReviewSelectionsPage })));

/**
 * The switch point for hand-built pages, by the flow's `page:` name (rules/flows/enrollment.flow.yaml).
 * A page not listed here shows the placeholder.
 */
const PAGES: Partial<Record<string, ComponentType<StepPageProps>>> = {
  plans: ({ view, onApplicationChange }) => <PlansPage stepId={view.step.id} view={view} onApplicationChange={onApplicationChange} />,
  review: ({ view, authenticated, onApplicationChange }) => (
    <ReviewSelectionsPage stepId={view.step.id} view={view} authenticated={authenticated} onApplicationChange={onApplicationChange} />
  ),
};

export const LOAD_FAILED = /*i18n*/ { id: 'An error occurred, please try again. If it continues, contact your agent.' };

const storeApplication = (application: Application) => useApplicationStore.getState().set(application);

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; view: StepView };

function Loading({ title }: { title: string }) {
  const { i18n } = useLingui();
  return (
    <div className="ef-step">
      <h1 className="ds-text-heading--2xl">{title}</h1>
      <Spinner aria-valuetext={i18n._('Loading')} role="status" />
    </div>
  );
}

export function StepPage({ step }: { step: FlowStep }) {
  const { i18n } = useLingui();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const navigate = useNavigate();
  const applicationId = useApplicationStore((s) => s.application?.applicationId ?? null);
  const agentName = useSiteStore((s) => s.site?.agent?.agent_name ?? null);
  const authenticated = useAuthStore((s) => s.auth?.is_authorized ?? false);

  // The view again when the language changes: the server writes the form's texts in it.
  const locale = i18n.locale;
  useEffect(() => {
    const abort = new AbortController();
    getStepView(step.id, abort.signal)
      .then((view) => setLoaded({ status: 'ready', view }))
      .catch(() => {
        if (!abort.signal.aborted) setLoaded({ status: 'failed' });
      });
    return () => abort.abort();
  }, [step.id, locale]);

  if (loaded.status === 'loading') return <Loading title={step.title} />;
  if (loaded.status === 'failed') {
    return (
      <div className="ef-step">
        <h1 className="ds-text-heading--2xl">{step.title}</h1>
        <Alert variation="error" heading={i18n._('Sorry, something went wrong')} headingLevel="2">
          {i18n._(LOAD_FAILED)}
        </Alert>
      </div>
    );
  }

  const { view } = loaded;
  if (view.kind === 'form') {
    return (
      <Suspense fallback={<Loading title={view.step.title} />}>
        <StepForm
          view={view}
          applicationId={applicationId}
          agentName={agentName}
          onSaved={(saved: StepSaved) => storeApplication(saved.application)}
          onApplicationChange={storeApplication}
          onNavigate={(path: string) => navigate(path)}
        />
      </Suspense>
    );
  }
  const Page = PAGES[view.kind];
  if (Page) {
    return (
      <Suspense fallback={<Loading title={view.step.title} />}>
        <Page step={step} view={view} authenticated={authenticated} onApplicationChange={storeApplication} />
      </Suspense>
    );
  }
  return (
    <div className="ef-step">
      <h1 className="ds-text-heading--2xl">{view.step.title}</h1>
      <p>
        <Trans id="This step is not available yet." />
      </p>
    </div>
  );
}
