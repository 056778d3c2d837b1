import type { ChangeEvent, FocusEvent } from 'react';
import { useLingui } from '@lingui/react';
import { TextField } from '@cmsgov/design-system';
import type { BaseInputTemplateProps, WidgetProps } from '@rjsf/utils';
import { displayDate, parseUsDateInput } from '../../utils/dates';
import { MASKS, displayMasked, parseMasked, type MaskName } from '../../utils/masks';
import { errorOf, hintOf, labelOf, nameOf } from './parts';

interface TextInputProps {
  props: WidgetProps;
  shown: string;
  onText: (text: string) => void;
  hint?: string;
  type?: string;
  multiline?: boolean;
  inputMode?: 'numeric' | 'text' | 'email' | 'tel';
  autoComplete?: string;
  maxLength?: number;
}

/**
 * The form file's `ui:autocomplete` (a WCAG 1.3.5 token: `given-name`, `bday`, `billing postal-code`,
 * …) wins over the widget's own default.
 */
function autocompleteOf(props: WidgetProps, fallback: string | undefined): string | undefined {
  const fromForm = props.options.autocomplete;
  return typeof fromForm === 'string' && fromForm !== '' ? fromForm : fallback;
}

/** A CMS TextField for an RJSF field: label, hint, the server's errors, read-only and disabled states. */
function TextInput({ props, shown, onText, hint, type, multiline, inputMode, autoComplete, maxLength }: TextInputProps) {
  const { id, disabled, readonly, onBlur, onFocus, value, autofocus, placeholder } = props;
  autoComplete = autocompleteOf(props, autoComplete);
  return (
    <TextField
      id={id}
      name={nameOf(props)}
      label={labelOf(props)}
      hint={hintOf(props, hint)}
      errorMessage={errorOf(props)}
      value={shown}
      type={type}
      multiline={multiline}
      rows={multiline ? 4 : undefined}
      inputMode={inputMode}
      autoComplete={autoComplete}
      maxLength={maxLength}
      placeholder={placeholder || undefined}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onText(e.target.value)}
      onBlur={(e: FocusEvent<HTMLInputElement>) => onBlur(id, e.target.value === '' ? undefined : value)}
      onFocus={(e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value === '' ? undefined : value)}
    />
  );
}

const maxLengthOf = (props: WidgetProps) => (typeof props.schema.maxLength === 'number' ? props.schema.maxLength : undefined);
const asText = (value: unknown) => (value === undefined || value === null ? '' : String(value));

export function TextWidget(props: WidgetProps) {
  const email = props.schema.format === 'email' || props.options.inputType === 'email';
  return (
    <TextInput
      props={props}
      shown={asText(props.value)}
      type={email ? 'email' : 'text'}
      inputMode={email ? 'email' : undefined}
      maxLength={maxLengthOf(props)}
      onText={(text) => props.onChange(text === '' ? undefined : text)}
    />
  );
}

export function TextareaWidget(props: WidgetProps) {
  return (
    <TextInput
      props={props}
      shown={asText(props.value)}
      multiline
      maxLength={maxLengthOf(props)}
      onText={(text) => props.onChange(text === '' ? undefined : text)}
    />
  );
}

/** A typed signature: the name as written, never filled in by the browser. */
export function SignatureWidget(props: WidgetProps) {
  return (
    <TextInput
      props={props}
      shown={asText(props.value)}
      autoComplete="off"
      maxLength={maxLengthOf(props)}
      onText={(text) => props.onChange(text === '' ? undefined : text)}
    />
  );
}

/** Dates shown and typed mm/dd/yyyy, stored ISO (`YYYY-MM-DD`) once whole. */
export function UsDateWidget(props: WidgetProps) {
  const { i18n } = useLingui();
  return (
    <TextInput
      props={props}
      shown={displayDate(props.value)}
      // How to type it, in the page's language ("mm/dd/aaaa" in Spanish); the order stays month/day/year.
      hint={i18n._('mm/dd/yyyy')}
      inputMode="numeric"
      autoComplete="off"
      maxLength={10}
      onText={(text) => props.onChange(parseUsDateInput(text))}
    />
  );
}

function maskedWidget(mask: MaskName, autoComplete?: string) {
  function MaskedWidget(props: WidgetProps) {
    return (
      <TextInput
        props={props}
        shown={displayMasked(mask, props.value)}
        hint={MASKS[mask].hint}
        inputMode="numeric"
        autoComplete={autoComplete}
        onText={(text) => props.onChange(parseMasked(mask, text, props.value))}
      />
    );
  }
  MaskedWidget.displayName = `MaskedWidget(${mask})`;
  return MaskedWidget;
}

export const SsnWidget = maskedWidget('ssn', 'off');
export const PhoneWidget = maskedWidget('phone', 'tel-national');
export const ZipWidget = maskedWidget('zip', 'postal-code');
export const NpiWidget = maskedWidget('npi', 'off');

/** RJSF's base input (number, email, … widgets without a widget of their own here). */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  return <TextWidget {...props} />;
}
