import { useEffect, type ChangeEvent } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Choice, ChoiceList, Hint, InlineError, Label } from '@cmsgov/design-system';
import type { EnumOptionsType, RJSFSchema, WidgetProps } from '@rjsf/utils';
import { isRecord } from '../../utils/paths';
import { stepContext } from '../form-context';
import { errorOf, hintOf, labelOf, nameOf } from './parts';

// Choices travel as their index ("0", "1", …) in the DOM and are decoded back to the schema's
// values, so integers stay integers and strings stay strings.

type Choices = EnumOptionsType<RJSFSchema>[];

const choicesOf = (props: WidgetProps): Choices => (props.options.enumOptions ?? []) as Choices;
const sameValue = (a: unknown, b: unknown) => a === b || (a !== undefined && a !== null && String(a) === String(b));
const indexOf = (choices: Choices, value: unknown) => choices.findIndex((c) => sameValue(c.value, value));

function decode(choices: Choices, index: string): unknown {
  const i = Number(index);
  return index === '' || Number.isNaN(i) ? undefined : choices[i]?.value;
}

/** Radio buttons (CMS ChoiceList); `hints` gives a choice its own hint by value. */
function RadioList({ props, hints }: { props: WidgetProps; hints?: (value: unknown) => string | undefined }) {
  const choices = choicesOf(props);
  const selected = indexOf(choices, props.value);
  // No choices yet (they depend on other answers): only the server's message, if any.
  if (choices.length === 0) {
    const error = errorOf(props);
    return error ? <InlineError id={`${props.id}__error`}>{error}</InlineError> : null;
  }
  return (
    <ChoiceList
      type="radio"
      name={nameOf(props)}
      id={props.id}
      label={labelOf(props)}
      hint={hintOf(props)}
      errorMessage={errorOf(props)}
      disabled={props.disabled || props.readonly}
      className={props.options.columns === 2 || choices.length > 8 ? 'ef-choices--columns' : undefined}
      choices={choices.map((c, i) => ({
        label: c.label,
        value: String(i),
        checked: i === selected,
        hint: hints?.(c.value),
      }))}
      onChange={(e: ChangeEvent<HTMLInputElement>) => props.onChange(decode(choices, e.target.value))}
    />
  );
}

export function RadioWidget(props: WidgetProps) {
  return <RadioList props={props} />;
}

/**
 * Tobacco use: radios that are disabled until the person is old enough (the UI schema computes that
 * from the birth date, see ui-schema.ts); an answer given before is dropped once they are disabled.
 */
export function TobaccoWidget(props: WidgetProps) {
  const { disabled, value, onChange } = props;
  useEffect(() => {
    if (disabled && value !== undefined) onChange(undefined);
  }, [disabled, value, onChange]);
  return <RadioList props={props} />;
}

/**
 * The qualifying events: radios in two columns, each with its note (`extras.qles[].note`), and the
 * documents accepted for the chosen one (`extras.qles[].supporting_docs` -> `extras.supporting_doc_copy`).
 */
export function QleListWidget(props: WidgetProps) {
  const { extras } = stepContext(props.registry);
  const events = Array.isArray(extras.qles) ? extras.qles.filter(isRecord) : [];
  const docs = Array.isArray(extras.supporting_doc_copy) ? extras.supporting_doc_copy.filter(isRecord) : [];
  const eventOf = (value: unknown) => events.find((e) => sameValue(e.id, value));
  const chosen = eventOf(props.value);
  const chosenDocs = (Array.isArray(chosen?.supporting_docs) ? chosen.supporting_docs : [])
    .map((id) => docs.find((d) => sameValue(d.id, id)))
    .filter((d): d is Record<string, unknown> => d !== undefined && typeof d.description === 'string');
  return (
    <div className="ef-qle-list">
      <RadioList
        props={{ ...props, options: { ...props.options, columns: 2 } }}
        hints={(value) => {
          const note = eventOf(value)?.note;
          return typeof note === 'string' && note !== '' ? note : undefined;
        }}
      />
      {chosenDocs.length > 0 && (
        <div className="ef-qle-docs">
          <h2 className="ds-text-heading--md">
            <Trans id="Acceptable documentation" />
          </h2>
          <ul>
            {chosenDocs.map((d) => (
              <li key={String(d.id)}>{String(d.description)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** A single checkbox for a yes/no answer (`true` when ticked). */
export function CheckboxWidget(props: WidgetProps) {
  return (
    <Choice
      type="checkbox"
      name={nameOf(props)}
      id={props.id}
      label={labelOf(props)}
      hint={hintOf(props)}
      errorMessage={errorOf(props)}
      disabled={props.disabled || props.readonly}
      value="true"
      checked={props.value === true}
      onChange={(e: ChangeEvent<HTMLInputElement>) => props.onChange(e.target.checked)}
    />
  );
}

/** Several answers from a list (an array of choices). */
export function CheckboxesWidget(props: WidgetProps) {
  const choices = choicesOf(props);
  const values: unknown[] = Array.isArray(props.value) ? props.value : [];
  const toggle = (index: string, on: boolean) => {
    const v = decode(choices, index);
    const rest = values.filter((x) => !sameValue(x, v));
    // Keep the list's order.
    const next = on ? choices.map((c) => c.value).filter((c) => sameValue(c, v) || rest.some((r) => sameValue(r, c))) : rest;
    props.onChange(next.length > 0 ? next : undefined);
  };
  return (
    <ChoiceList
      type="checkbox"
      name={nameOf(props)}
      id={props.id}
      label={labelOf(props)}
      hint={hintOf(props)}
      errorMessage={errorOf(props)}
      disabled={props.disabled || props.readonly}
      className={choices.length > 8 ? 'ef-choices--columns' : undefined}
      choices={choices.map((c, i) => ({
        label: c.label,
        value: String(i),
        checked: values.some((v) => sameValue(v, c.value)),
      }))}
      onChange={(e: ChangeEvent<HTMLInputElement>) => toggle(e.target.value, e.target.checked)}
    />
  );
}

interface SelectChoice {
  label: string;
  value: unknown;
}

interface SelectProps {
  props: WidgetProps;
  choices: SelectChoice[];
  onSelect: (value: unknown) => void;
}

/**
 * A select with a first, empty choice (`ui:placeholder`, else "Select"): a native `<select>` with
 * the CMS field, label, hint and error styles. (The CMS Dropdown brings react-aria, about 20 kB
 * gzipped, which does not fit the form step's size budget.)
 */
export function SelectField({ props, choices, onSelect }: SelectProps) {
  const { i18n } = useLingui();
  const selected = choices.findIndex((c) => sameValue(c.value, props.value));
  const placeholder = typeof props.placeholder === 'string' && props.placeholder !== '' ? props.placeholder : i18n._('Select');
  const hint = hintOf(props);
  const error = errorOf(props);
  const hintId = `${props.id}__hint`;
  const errorId = `${props.id}__error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="ds-u-clearfix">
      <Label fieldId={props.id} id={`${props.id}__label`}>
        {labelOf(props)}
      </Label>
      {hint && <Hint id={hintId}>{hint}</Hint>}
      {error && <InlineError id={errorId}>{error}</InlineError>}
      <select
        id={props.id}
        name={nameOf(props)}
        className={`ds-c-field${error ? ' ds-c-field--error' : ''}`}
        value={selected >= 0 ? String(selected) : ''}
        disabled={props.disabled || props.readonly}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        autoComplete={typeof props.options.autocomplete === 'string' ? props.options.autocomplete : undefined}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => {
          const i = e.target.value === '' ? -1 : Number(e.target.value);
          onSelect(i >= 0 ? choices[i]?.value : undefined);
        }}
      >
        <option value="">{placeholder}</option>
        {choices.map((c, i) => (
          <option key={`${String(c.value)}-${i}`} value={String(i)}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A select. With one choice it is not shown: the choice is made (spec part 1, 5). An array field
 * without a widget of its own is drawn as checkboxes.
 */
export function SelectWidget(props: WidgetProps) {
  const choices = choicesOf(props);
  const only = choices.length === 1 && !props.readonly && !props.multiple ? choices[0] : undefined;
  const { value, onChange } = props;
  useEffect(() => {
    if (only && !sameValue(only.value, value)) onChange(only.value);
  }, [only, value, onChange]);
  if (props.multiple) return <CheckboxesWidget {...props} />;
  if (only) return null;
  return <SelectField props={props} choices={choices.map((c) => ({ label: c.label, value: c.value }))} onSelect={props.onChange} />;
}
