import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, ChoiceList, Spinner, TextField } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Applying, PlaygroundResult, PlaygroundSteps } from '@/types/api';
import { getPlayground } from '../api/get-playground';
import { tryPlaygroundStep } from '../api/try-playground-step';
import {
  buildPlaygroundRequest,
  DEFAULT_INPUTS,
  type InputErrors,
  type PlaygroundInputs,
} from '../utils/build-playground-request';
import { formatJson } from '../utils/format-json';
import { FormPreview } from './form-preview';
import { JsonSection } from './json-section';
import { ValidationResult } from './validation-result';
import './playground.css';

export const PLAYGROUND_OFF = 'The playground is turned off.';

type Load = { state: 'loading' } | { state: 'off' } | { state: 'failed'; message: string } | { state: 'ready'; data: PlaygroundSteps };

type Outcome = { result: PlaygroundResult; seq: number } | { error: string; rule: boolean; seq: number } | null;

function Heading() {
  return <h1 className="ds-text-heading--2xl">Playground</h1>;
}

/**
 * The analysts' playground (spec part 1, 2.1): any step's form in a chosen context, its schema,
 * data and extras, and the server's validation of sample answers. Nothing is saved.
 */
export function Playground({ enabled }: { enabled: boolean }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [inputs, setInputs] = useState<PlaygroundInputs>(DEFAULT_INPUTS);
  const [errors, setErrors] = useState<InputErrors>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pending, setPending] = useState(false);
  const seq = useRef(0);
  const stepId = useId();

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    getPlayground().then(
      (data) => {
        if (!live) return;
        setLoad({ state: 'ready', data });
        setInputs((prev) => (prev.step ? prev : { ...prev, step: data.steps[0]?.id ?? '' }));
      },
      (e: unknown) => {
        if (!live) return;
        if (e instanceof ApiError && e.status === 404) setLoad({ state: 'off' });
        else setLoad({ state: 'failed', message: e instanceof ApiError ? e.message : GENERIC_ERROR });
      },
    );
    return () => {
      live = false;
    };
  }, [enabled]);

  if (!enabled || load.state === 'off') {
    return (
      <div className="ef-playground">
        <Heading />
        <p>{PLAYGROUND_OFF}</p>
      </div>
    );
  }
  if (load.state === 'loading') {
    return (
      <div className="ef-playground">
        <Heading />
        <Spinner aria-valuetext="Loading" role="status" />
      </div>
    );
  }
  if (load.state === 'failed') {
    return (
      <div className="ef-playground">
        <Heading />
        <Alert variation="error" role="alert">
          {load.message}
        </Alert>
      </div>
    );
  }

  const set = <K extends keyof PlaygroundInputs>(key: K, value: PlaygroundInputs[K]) =>
    setInputs((prev) => ({ ...prev, [key]: value }));

  const run = (validate: boolean) => {
    const built = buildPlaygroundRequest(inputs, validate, load.state === 'ready' ? load.data.agent_flags.map((f) => f.flag) : []);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    const mine = ++seq.current;
    setPending(true);
    tryPlaygroundStep(built.request).then(
      (result) => {
        if (mine === seq.current) setOutcome({ result, seq: mine });
      },
      (e: unknown) => {
        if (mine !== seq.current) return;
        const rule = e instanceof ApiError && e.status === 400;
        setOutcome({ error: e instanceof ApiError ? e.message : GENERIC_ERROR, rule, seq: mine });
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
  return (
    <div className="ef-playground">
      <Heading />
      <p>
        Try any step’s form in a context of your choosing. Nothing is saved. Serving rules{' '}
        <code title={rules}>{rules.slice(0, 12)}</code>.
      </p>
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-lg-col--5">
          <form className="ef-playground__controls" onSubmit={onSubmit} noValidate aria-label="Playground context">
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
            <TextField
              name="app"
              label="Application context (JSON)"
              hint="Flags such as medical_carrier_id, enrollment_type, effective_date, and earlier answers."
              multiline
              rows={6}
              fieldClassName="ef-playground__code"
              value={inputs.app}
              errorMessage={errors.app}
              onChange={(e: { target: { value: string } }) => set('app', e.target.value)}
            />
            <TextField
              name="answers"
              label="Sample answers (JSON, optional)"
              hint="Validate checks these; empty validates empty answers."
              multiline
              rows={6}
              fieldClassName="ef-playground__code"
              value={inputs.answers}
              errorMessage={errors.answers}
              onChange={(e: { target: { value: string } }) => set('answers', e.target.value)}
            />
            <div className="ef-playground__actions">
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
          <section className="ef-playground__results" aria-labelledby={`${stepId}-results`} aria-busy={pending}>
            <h2 id={`${stepId}-results`} className="ds-text-heading--xl">
              Result
            </h2>
            <Results outcome={outcome} onUseAnswers={(answers) => set('answers', formatJson(answers))} />
          </section>
        </div>
      </div>
    </div>
  );
}

function Results({ outcome, onUseAnswers }: { outcome: Outcome; onUseAnswers: (answers: unknown) => void }) {
  if (!outcome) return <p className="ef-playground__muted">Choose a context, then Show form or Validate.</p>;
  if ('error' in outcome) {
    return (
      <Alert variation="error" role="alert" heading={outcome.rule ? 'The rules failed for this context' : undefined} headingLevel="3">
        {outcome.error}
      </Alert>
    );
  }
  const { view, validation } = outcome.result;
  return (
    <>
      <p role="status" className="ef-playground__status">
        {view.step.number}. {view.step.title} (<code>{view.step.id}</code>): {view.kind === 'form' ? 'a form' : `the ${view.kind} page`}
        {view.skipped ? ', skipped in this context' : ''}.
      </p>
      <dl className="ef-playground__facts">
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
      <h3 className="ds-text-heading--lg">Form</h3>
      {view.schema ? (
        <FormPreview key={outcome.seq} view={view} onUseAnswers={onUseAnswers} />
      ) : (
        <p className="ef-playground__muted">
          A hand-built page (<code>{view.kind}</code>): there is no schema to draw.
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
