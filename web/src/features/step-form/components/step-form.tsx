import { useCallback, useLayoutEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import Form from '@rjsf/core';
import { Trans, useLingui } from '@lingui/react';
import { englishStringTranslator, TranslatableString, type Experimental_DefaultFormStateBehavior, type RJSFSchema } from '@rjsf/utils';
import { Alert, Button } from '@cmsgov/design-system';
import { schemaValidator } from '@/lib/schema-validator';
import type { Application, StepSaved, StepView } from '@/types/api';
import { FAILURE_TEXT, useStepForm, type PreviewBackend } from '../hooks/use-step-form';
import { placeErrors } from '../utils/error-keys';
import { NO, YES } from '../utils/format';
import { inFormOrder } from '../utils/form-order';
import { getAt, isAnswered, isRecord, parseFieldPath } from '../utils/paths';
import { resolveSections } from '../utils/sections';
import { isTruthy, lookup } from '../utils/template';
import type { Translate } from '../utils/translate';
import { buildUiSchema, isFieldShown } from '../utils/ui-schema';
import { ErrorSummary } from './error-summary';
import { StepDialog } from './step-dialog';
import { STEP_TEMPLATES } from './templates';
import { STEP_WIDGETS } from './widgets';
import './step-form.css';

export const ERROR_BANNER = /*i18n*/ {
  id: 'There was a problem with the information you entered. Please check the highlighted fields and try again.',
};
export const FAILURE_HEADING = /*i18n*/ { id: 'Sorry, something went wrong' };
export { FAILURE_TEXT };

// Defaults RJSF may fill in: none that the user did not choose (no empty spouse object, no `const`
// answers such as an agreement, no items for minItems).
const DEFAULTS: Experimental_DefaultFormStateBehavior = {
  emptyObjectFields: 'skipEmptyDefaults',
  constAsDefaults: 'never',
  arrayMinItems: { populate: 'never' },
};

export interface StepFormProps {
  /** The step's view (`kind: "form"`), as GET /api/application/step/{step} gave it. */
  view: StepView;
  applicationId: string | null;
  agentName: string | null;
  onSaved: (saved: StepSaved) => void;
  onNavigate: (path: string) => void;
  /** The application changed without a save of this step (a skipped step opened again). */
  onApplicationChange?: (application: Application) => void;
  /** A preview that saves nothing (the rules workbench). */
  backend?: PreviewBackend;
}

/**
 * RJSF's own texts that a consumer can see with this theme: the choices of a yes/no field drawn as
 * radios or a select. The others (its buttons and notes for fields this theme draws itself, form
 * file mistakes) stay RJSF's English.
 */
function rjsfTexts(t: Translate) {
  return (text: TranslatableString, params?: string[]): string => {
    if (text === TranslatableString.YesLabel) return t(YES);
    if (text === TranslatableString.NoLabel) return t(NO);
    return englishStringTranslator(text, params);
  };
}

/** Enter in a field never submits the step (spec part 2, Why Are You Applying). */
function suppressEnter(e: KeyboardEvent<HTMLDivElement>) {
  if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault();
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && x !== '');

/**
 * A form step drawn from the server's view: heading, the error banner, the fields (RJSF with the
 * Enrollflow theme on the CMS Design System) among the read-only summary sections, Previous /
 * Continue and the step's dialogs. Nothing here knows a step: what differs between steps comes
 * from the form files. The form's own options (`ui:options`):
 * - `closedWhen: <extra>`: while the extra is given, the form is closed: the sections only, no
 *   fields, no Previous or Continue (a purchased application);
 * - `openModal: { when: <extra>, modal: <id> }`: the dialog opens by itself while the extra is given.
 * - `failureWithFieldErrors: true`: a save refused with field errors also shows "Sorry, something
 *   went wrong" (spec part 1, 8: the census).
 * `ui:submitButtonOptions`: `submitText` names Continue; `requires: [field, …]` keeps it disabled
 * until those answers are given (a ticked box counts, an unticked one does not), with the hint
 * `requiresMessage`; `showWhenAnswered: [field, …]`: Continue appears only once those are given
 * (spec part 2: "Continue appears only once a type is chosen").
 * A refused save's errors are summed up at the top, each a link to its field (the CMS pattern), and
 * focus goes there; a refusal of the whole submission (`submit_error`) is a red alert there.
 */
export function StepForm({ view: initialView, applicationId, agentName, onSaved, onNavigate, onApplicationChange, backend }: StepFormProps) {
  const { i18n, _: t } = useLingui();
  const form = useStepForm({ view: initialView, applicationId, agentName, onSaved, onNavigate, onApplicationChange, backend });
  const { view, formData, errors, failure, uploadError, submitError, busy, dialog } = form;
  const banner = useRef<HTMLDivElement>(null);
  const summary = useRef<HTMLElement | null>(null);
  const setSummary = useCallback((el: HTMLElement | null) => {
    summary.current = el;
  }, []);

  const rootOptions = isRecord(view.ui['ui:options']) ? view.ui['ui:options'] : {};
  const closed = typeof rootOptions.closedWhen === 'string' && isTruthy(lookup(view.extras ?? {}, rootOptions.closedWhen));
  const sections = useMemo(() => resolveSections(view.ui['ui:sections'], view.extras ?? {}, formData, t), [view, formData, t]);
  const uiSchema = useMemo(
    () => buildUiSchema(view.ui, view.schema, formData, { extras: view.extras ?? {}, rootOptions: { efSections: sections, efClosed: closed } }),
    [view, formData, sections, closed],
  );
  const translateString = useMemo(() => rjsfTexts(t), [t]);
  const placed = useMemo(() => {
    if (!errors) return null;
    const at = placeErrors(errors, view.schema, formData, (p) => isFieldShown(view.ui, view.schema, formData, p));
    // The summary lists them as the fields come on the page.
    return { ...at, fields: inFormOrder(at.fields, view.schema, view.ui) };
  }, [errors, view, formData]);

  // A refused or failed save: the page goes to the top (spec part 1, 5) and focus goes to the error
  // summary when fields are in error (the CMS pattern), else to the banner, which is read out.
  useLayoutEffect(() => {
    if (!errors && !failure && !uploadError && !submitError) return;
    window.scrollTo({ top: 0 });
    (summary.current ?? banner.current)?.focus({ preventScroll: true });
  }, [errors, failure, uploadError, submitError]);

  // RJSF's own `ui:submitButtonOptions.submitText` names the Continue button (e.g. "Purchase").
  const submit = isRecord(view.ui['ui:submitButtonOptions']) ? view.ui['ui:submitButtonOptions'] : {};
  const continueLabel = typeof submit.submitText === 'string' && submit.submitText !== '' ? submit.submitText : i18n._('Continue');
  const waiting = strings(submit.requires).some((f) => !isAnswered(getAt(formData, parseFieldPath(f))));
  const continueShown = strings(submit.showWhenAnswered).every((f) => isAnswered(getAt(formData, parseFieldPath(f))));
  const failureWithFields = rootOptions.failureWithFieldErrors === true && placed !== null;
  const waitingHint = waiting && typeof submit.requiresMessage === 'string' && submit.requiresMessage !== '' ? submit.requiresMessage : null;
  const legend =
    rootOptions.requiredLegend === true && !closed
      ? typeof view.extras?.required_legend === 'string'
        ? view.extras.required_legend
        : i18n._('* indicates a required field')
      : null;

  return (
    <div className="ef-step ef-step-form">
      <h1 className="ds-text-heading--2xl">{view.step.title}</h1>
      <div ref={banner} tabIndex={-1} className="ef-step-form__banner">
        {submitError && (
          <Alert variation="error" role="alert" className="ds-u-margin-bottom--3 ef-submit-error">
            <p className="ds-c-alert__text">{submitError}</p>
          </Alert>
        )}
        {failureWithFields && (
          <Alert variation="error" heading={i18n._(FAILURE_HEADING)} headingLevel="2" className="ds-u-margin-bottom--3">
            <p className="ds-c-alert__text">{i18n._(FAILURE_TEXT)}</p>
          </Alert>
        )}
        {placed && (placed.fields.length > 0 || placed.unplaced.length > 0) && (
          <ErrorSummary
            heading={i18n._(ERROR_BANNER)}
            fields={placed.fields}
            unplaced={placed.unplaced}
            uiSchema={uiSchema}
            formData={formData}
            summaryRef={setSummary}
          />
        )}
        {uploadError && (
          <Alert variation="error" role="alert" className="ds-u-margin-bottom--3">
            <p className="ds-c-alert__text">{uploadError}</p>
          </Alert>
        )}
        {failure && (
          <Alert variation="error" role="alert" heading={i18n._(FAILURE_HEADING)} headingLevel="2" className="ds-u-margin-bottom--3">
            <p className="ds-c-alert__text">{failure}</p>
          </Alert>
        )}
      </div>
      {legend && <p className="ef-step-form__legend">{legend}</p>}
      {view.schema && (
        <div onKeyDownCapture={suppressEnter}>
          <Form
            schema={view.schema as RJSFSchema}
            uiSchema={uiSchema}
            formData={formData}
            validator={schemaValidator}
            widgets={STEP_WIDGETS}
            templates={STEP_TEMPLATES}
            formContext={form.formContext}
            translateString={translateString}
            extraErrors={placed?.errorSchema}
            idPrefix="ef"
            noHtml5Validate
            noValidate
            showErrorList={false}
            experimental_defaultFormStateBehavior={DEFAULTS}
            onChange={(e) => form.change(e.formData)}
            onSubmit={() => {}}
            className="ef-step-form__form"
          />
        </div>
      )}
      {!closed && (
        <div className="ef-step-form__nav">
          {view.previous && (
            <Button variation="ghost" onClick={() => onNavigate(view.previous!.route)}>
              <Trans id="Previous" />
            </Button>
          )}
          {continueShown && (
            <div className="ef-step-form__continue">
              {waitingHint && (
                <p id="ef-continue-hint" className="ds-c-hint ef-step-form__hint">
                  {waitingHint}
                </p>
              )}
              <Button
                variation="solid"
                onClick={() => void form.save()}
                disabled={busy || waiting}
                aria-describedby={waitingHint ? 'ef-continue-hint' : undefined}
              >
                {continueLabel}
              </Button>
            </div>
          )}
        </div>
      )}
      {dialog && (
        <StepDialog modal={dialog.modal} busy={busy} onButton={form.pressDialogButton} onExit={() => form.closeDialog()} />
      )}
    </div>
  );
}

export default StepForm;
