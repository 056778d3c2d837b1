import { useEffect, useId, useMemo, useRef, useState, type ComponentType, type FormEvent } from 'react';
import { Alert, Button, ChoiceList, Spinner, TextField } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Applying, PreviewPlans, PreviewRequest, PreviewResult, PreviewSteps, StepErrors, StepView } from '@/types/api';
import { getPreviewSteps, previewStepIn } from '../api/workbench';
import {
  buildPreviewRequest,
  DEFAULT_INPUTS,
  type InputErrors,
  type PreviewInputs,
} from '../utils/build-preview-request';
import { describeHousehold, HOUSEHOLDS, householdJson } from '../utils/households';
import { JsonSection } from './json-section';
import { ValidationResult } from './validation-result';


/**
 * Where the consumer's form renderer gets its views and verdicts in a preview: Continue asks
 * `submit`, which answers where the step would go or throws the 422 of refused answers; nothing is
 * saved. (The wizard's StepForm takes it as its `backend`.)
 */
export interface PreviewBackend {
  preview: (step: string, answers: unknown) => Promise<StepView>;
  view: (step: string) => Promise<StepView>;
  submit: (step: string, answers: unknown) => Promise<{ next: StepView['step']; modal: string | null }>;
}

/** A plan page's plans for the sample household, drawn by the consumer's plan cards (from the app). */
export interface ConsumerPlansProps {
  plans: PreviewPlans;
}

/** The consumer's form renderer, as the app gives it to the preview. */
export interface ConsumerFormProps {
  view: StepView;
  agentName: string | null;
  backend: PreviewBackend;
}

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: PreviewSteps };

type Outcome =
  | { result: PreviewResult; seq: number; request: PreviewRequest }
  | { error: string; rule: boolean; seq: number }
  | null;

function Heading() {
  return <h2 className="ds-text-heading--xl">Preview</h2>;
}

/**
 * The workbench's preview (it replaces the playground of spec part 1, 2.1): any step in a chosen
 * context and sample household, drawn by the consumer's own form renderer, with its schema, data
 * and extras, and the server's verdict on sample answers. Continue in the preview asks the rules
 * where the step would go; nothing is saved.
 */
/** The consumer's renderers the app gives the preview: the wizard's form and plan cards. */
export interface ConsumerRenderers {
  consumerForm: ComponentType<ConsumerFormProps>;
  consumerPlans: ComponentType<ConsumerPlansProps>;
}

export function PreviewTab({ consumerForm, consumerPlans }: ConsumerRenderers) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [inputs, setInputs] = useState<PreviewInputs>(DEFAULT_INPUTS);
  const [errors, setErrors] = useState<InputErrors>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pending, setPending] = useState(false);
  /** The household preset the context was filled from, or 'custom' (the JSON as typed). */
  const [household, setHousehold] = useState('custom');
  const seq = useRef(0);
  const stepId = useId();
  const householdId = useId();

  useEffect(() => {
    let live = true;
    getPreviewSteps().then(
      (data) => {
        if (!live) return;
        setLoad({ state: 'ready', data });
        setInputs((prev) => (prev.step ? prev : { ...prev, step: data.steps[0]?.id ?? '' }));
      },
      (e: unknown) => {
        if (!live) return;
        setLoad({ state: 'failed', message: e instanceof ApiError ? e.message : GENERIC_ERROR.id });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  if (load.state === 'loading') {
    return (
      <div className="ef-workbench">
        <Heading />
        <Spinner aria-valuetext="Loading" role="status" />
      </div>
    );
  }
  if (load.state === 'failed') {
    return (
      <div className="ef-workbench">
        <Heading />
        <Alert variation="error" role="alert">
          {load.message}
        </Alert>
      </div>
    );
  }

  const set = <K extends keyof PreviewInputs>(key: K, value: PreviewInputs[K]) =>
    setInputs((prev) => ({ ...prev, [key]: value }));

  const run = (validate: boolean) => {
    const built = buildPreviewRequest(inputs, validate, load.state === 'ready' ? load.data.agent_flags.map((f) => f.flag) : []);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    const mine = ++seq.current;
    setPending(true);
    previewStepIn(built.request).then(
      (result) => {
        if (mine === seq.current) setOutcome({ result, seq: mine, request: built.request });
      },
      (e: unknown) => {
        if (mine !== seq.current) return;
        const rule = e instanceof ApiError && e.status === 400;
        setOutcome({ error: e instanceof ApiError ? e.message : GENERIC_ERROR.id, rule, seq: mine });
      },
    ).finally(() => {
      if (mine === seq.current) setPending(false);
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    run(true);
  };

  const { steps, rules } = load.data;
  const preset = HOUSEHOLDS.find((h) => h.id === household) ?? null;
  return (
    <div className="ef-workbench">
      <Heading />
      <p>
        Any step for a sample household, as a consumer would see it. Nothing is saved. Serving rules{' '}
        <code title={rules}>{rules.slice(0, 12)}</code>.
      </p>
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-lg-col--5">
          <form className="ef-workbench__controls" onSubmit={onSubmit} noValidate aria-label="Preview context">
            <div className="ds-u-margin-top--3">
              <label className="ds-c-label" htmlFor={stepId}>
                Step
              </label>
              {errors.step && (
                <span className="ds-c-inline-error" id={`${stepId}-error`}>
                  {errors.step}
                </span>
              )}
              <select
                id={stepId}
                className="ds-c-field"
                value={inputs.step}
                aria-invalid={errors.step ? true : undefined}
                aria-describedby={errors.step ? `${stepId}-error` : undefined}
                onChange={(e) => set('step', e.target.value)}
              >
                {steps.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.number}. {s.title} ({s.id})
                  </option>
                ))}
              </select>
            </div>
            <TextField
              name="today"
              type="date"
              label="Today"
              hint="Leave empty for the server’s today."
              value={inputs.today}
              errorMessage={errors.today}
              onChange={(e: { target: { value: string } }) => set('today', e.target.value)}
            />
            <ChoiceList
              name="applying"
              type="radio"
              label="Applying"
              choices={(['consumer', 'agent'] as Applying[]).map((value) => ({
                value,
                label: value === 'consumer' ? 'Consumer' : 'Agent',
                checked: inputs.applying === value,
              }))}
              onChange={(e: { target: { value: string } }) => set('applying', e.target.value as Applying)}
            />
            <ChoiceList
              name="agent"
              type="checkbox"
              label="The agent"
              choices={[
                ...load.data.agent_flags.map((f) => ({
                  value: f.flag,
                  label: `Offers ${f.carriers.join(', ')} (${f.flag})`,
                  checked: (inputs.offers ?? load.data.agent_flags.map((a) => a.flag)).includes(f.flag),
                })),
                {
                  value: 'marketplace_certified',
                  label: 'Marketplace certified (marketplace_certified)',
                  checked: inputs.marketplaceCertified,
                },
              ]}
              onChange={(e: { target: { value: string; checked: boolean } }) => {
                const { value, checked } = e.target;
                if (value === 'marketplace_certified') {
                  set('marketplaceCertified', checked);
                  return;
                }
                const on = inputs.offers ?? load.data.agent_flags.map((a) => a.flag);
                set('offers', checked ? [...on.filter((f) => f !== value), value] : on.filter((f) => f !== value));
              }}
            />
            <div className="ds-u-margin-top--3">
              <label className="ds-c-label" htmlFor={householdId}>
                Household
              </label>
              <p className="ds-c-hint" id={`${householdId}-hint`}>
                A made-up household fills the context below with its census answers.
              </p>
              <select
                id={householdId}
                className="ds-c-field"
                value={household}
                aria-describedby={`${householdId}-hint${preset ? ` ${householdId}-about` : ''}`}
                onChange={(e) => {
                  const chosen = HOUSEHOLDS.find((h) => h.id === e.target.value);
                  setHousehold(chosen ? chosen.id : 'custom');
                  if (chosen) set('app', householdJson(chosen));
                }}
              >
                <option value="custom">Custom (JSON)</option>
                {HOUSEHOLDS.map((h) => (
                  <option key={h.id} value={h.id}>
                    {h.label}
                  </option>
                ))}
              </select>
              {preset && (
                <p className="ef-workbench__household" id={`${householdId}-about`}>
                  {describeHousehold(preset)}
                </p>
              )}
            </div>
            <TextField
              name="app"
              label="Sample household and application (JSON)"
              hint="Earlier answers (census: the people, their birth dates and ZIP) and flags such as medical_carrier_id, enrollment_type, effective_date. Editing it makes the household Custom."
              multiline
              rows={6}
              fieldClassName="ef-workbench__code"
              value={inputs.app}
              errorMessage={errors.app}
              onChange={(e: { target: { value: string } }) => {
                set('app', e.target.value);
                if (preset && e.target.value !== householdJson(preset)) setHousehold('custom');
              }}
            />
            <TextField
              name="answers"
              label="Sample answers (JSON, optional)"
              hint="Validate checks these; empty validates empty answers."
              multiline
              rows={6}
              fieldClassName="ef-workbench__code"
              value={inputs.answers}
              errorMessage={errors.answers}
              onChange={(e: { target: { value: string } }) => set('answers', e.target.value)}
            />
            <div className="ef-workbench__actions">
              <Button type="submit" variation="solid" disabled={pending}>
                Validate
              </Button>
              <Button type="button" disabled={pending} onClick={() => run(false)}>
                Show form
              </Button>
            </div>
          </form>
        </div>
        <div className="ds-l-col--12 ds-l-lg-col--7">
          <section className="ef-workbench__results" aria-labelledby={`${stepId}-results`} aria-busy={pending}>
            <h2 id={`${stepId}-results`} className="ds-text-heading--xl">
              Result
            </h2>
            <Results outcome={outcome} consumerForm={consumerForm} consumerPlans={consumerPlans} />
          </section>
        </div>
      </div>
    </div>
  );
}

function Results({ outcome, consumerForm, consumerPlans: Plans }: { outcome: Outcome } & ConsumerRenderers) {
  if (!outcome) return <p className="ef-workbench__muted">Choose a context, then Show form or Validate.</p>;
  if ('error' in outcome) {
    return (
      <Alert variation="error" role="alert" heading={outcome.rule ? 'The rules failed for this context' : undefined} headingLevel="3">
        {outcome.error}
      </Alert>
    );
  }
  const { view, validation, plans } = outcome.result;
  return (
    <>
      <p role="status" className="ef-workbench__status">
        {view.step.number}. {view.step.title} (<code>{view.step.id}</code>): {view.kind === 'form' ? 'a form' : `the ${view.kind} page`}
        {view.skipped ? ', skipped in this context' : ''}.
      </p>
      <dl className="ef-workbench__facts">
        <div>
          <dt>Previous</dt>
          <dd>{view.previous ? `${view.previous.title} (${view.previous.id})` : 'none'}</dd>
        </div>
        <div>
          <dt>Next</dt>
          <dd>{view.next ? `${view.next.title} (${view.next.id})` : 'none'}</dd>
        </div>
        <div>
          <dt>Refreshes on</dt>
          <dd>{view.refresh_on.length ? view.refresh_on.join(', ') : 'nothing'}</dd>
        </div>
      </dl>
      <h3 className="ds-text-heading--lg">Validation</h3>
      <ValidationResult validation={validation} />
      <h3 className="ds-text-heading--lg">As the consumer sees it</h3>
      {view.kind === 'form' ? (
        <ConsumerForm key={outcome.seq} result={outcome.result} request={outcome.request} form={consumerForm} />
      ) : plans ? (
        plans.none_because ? (
          <p className="ef-workbench__muted">Nothing is quoted for this household: {plans.none_because}.</p>
        ) : (
          <div className="ef-workbench__consumer">
            <p role="status" className="ef-workbench__status">
              {plans.plans.length} plans quoted for a household of {plans.household_size}, cheapest first.
            </p>
            <Plans plans={plans} />
          </div>
        )
      ) : (
        <p className="ef-workbench__muted">
          A hand-built page (<code>{view.kind}</code>): what it shows is in the Extras below.
        </p>
      )}
      <h3 className="ds-text-heading--lg">Details</h3>
      <JsonSection title="Schema" value={view.schema} />
      <JsonSection title="UI schema" value={view.ui} />
      <JsonSection title="Data" value={view.data} />
      <JsonSection title="Extras" value={view.extras} />
      <JsonSection title="Modals" value={view.modals} />
      {view.kind !== 'form' && <JsonSection title="Page parameters" value={view.params} />}
      <JsonSection title="Validation (raw)" value={validation} />
    </>
  );
}

/**
 * The step drawn by the consumer's renderer (the wizard's own StepForm), in the preview's context:
 * changes refresh the view through the preview, Continue asks the rules where it would go and
 * shows their errors as the consumer would see them. Nothing is saved.
 */
function ConsumerForm({
  result,
  request,
  form: Form,
}: {
  result: PreviewResult;
  request: PreviewRequest;
  form: ComponentType<ConsumerFormProps>;
}) {
  const [went, setWent] = useState<string | null>(null);
  const backend = useMemo<PreviewBackend>(() => {
    const ask = (answers: unknown) =>
      previewStepIn({ ...request, answers: (answers ?? {}) as Record<string, unknown> });
    return {
      preview: async (_step, answers) => (await ask(answers)).view,
      view: async () => (await previewStepIn({ ...request, answers: null })).view,
      submit: async (_step, answers) => {
        const r = await ask(answers);
        const v = r.validation;
        if (!v) throw new ApiError(400, 'This step has no form.');
        if (v.outcome === 'invalid') throw new ApiError(422, 'The answers were refused.', v.errors as StepErrors);
        setWent(v.modal ? `Continue asks the dialog ${v.modal}.` : `Continue goes to ${v.next.title} (${v.next.id}).`);
        return { next: v.next, modal: v.modal };
      },
    };
  }, [request]);
  return (
    <div className="ef-workbench__consumer">
      {went && (
        <p role="status" className="ef-workbench__status">
          {went}
        </p>
      )}
      <Form view={result.view} agentName={request.agent?.name ?? null} backend={backend} />
    </div>
  );
}
