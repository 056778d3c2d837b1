import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useLingui } from '@lingui/react';
import { Hint, InlineError, Label } from '@cmsgov/design-system';
import type { WidgetProps } from '@rjsf/utils';
import { checkUpload, uploadRules } from '../../utils/file-check';
import { say, type Said } from '../../utils/translate';
import { stepContext } from '../form-context';
import { busyKey, efOptions, errorOf, hintOf, labelOf, nameOf } from './parts';

/**
 * A document to upload (`ui:widget: pdf-upload`; the field's `x-upload: { url, accept, max_bytes }`
 * and `x-messages`). The field's value is the name of the file on file (read-only, from the
 * server). A chosen file is checked in the browser (a file too large shows the message and the
 * input is cleared) and uploaded once the step is saved (spec part 2, 4: save, then upload).
 */
export function FileWidget(props: WidgetProps) {
  const { i18n } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<Said | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const ctx = stepContext(props.registry);
  const rules = uploadRules(props.schema);
  const key = busyKey(props);
  const path = efOptions(props).efPath ?? [];
  const hintId = `${props.id}__hint`;
  const errorId = `${props.id}__error`;
  const error = problem === null ? errorOf(props) : say(i18n, problem);
  const onFile = typeof props.value === 'string' && props.value !== '' ? props.value : null;

  // A file chosen but not sent yet is forgotten when the field goes away (another answer hides it).
  const setUpload = ctx.setUpload;
  useEffect(() => () => setUpload(key, null), [setUpload, key]);

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0] ?? null;
    setProblem(null);
    setChosen(null);
    ctx.setUpload(key, null);
    if (!file) return;
    const why = checkUpload(file, rules);
    if (why) {
      setProblem(why);
      if (input.current) input.current.value = '';
      return;
    }
    if (!rules.url) {
      console.warn(`field ${key}: no x-upload.url to send the file to`);
      return;
    }
    setChosen(file.name);
    ctx.setUpload(key, { url: rules.url, file, path });
  };

  return (
    <div className="ds-u-clearfix">
      <Label fieldId={props.id} id={`${props.id}__label`}>
        {labelOf(props)}
      </Label>
      <Hint id={hintId}>{hintOf(props, i18n._('Choose a PDF file of 3 MB at most. It is uploaded when you continue.'))}</Hint>
      {error && <InlineError id={errorId}>{error}</InlineError>}
      <input
        ref={input}
        type="file"
        id={props.id}
        name={nameOf(props)}
        accept={rules.accept}
        className="ef-file-input"
        disabled={props.disabled}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        aria-invalid={error ? true : undefined}
        onChange={choose}
      />
      <p className="ds-u-margin-y--1" aria-live="polite">
        {chosen ? i18n._('Selected: {file}', { file: chosen }) : onFile ? i18n._('On file: {file}', { file: onFile }) : ''}
      </p>
    </div>
  );
}
