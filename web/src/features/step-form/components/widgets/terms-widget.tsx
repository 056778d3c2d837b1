import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Button, Dialog, InlineError } from '@cmsgov/design-system';
import type { WidgetProps } from '@rjsf/utils';
import { lookup } from '../../utils/template';
import { stepContext } from '../form-context';
import { errorOf, labelOf } from './parts';

/**
 * Agreement through a dialog (spec part 2, "View Terms and Conditions" with Cancel and Agree): the
 * answer is `true` once agreed. `ui:options.textExtra` names an extra holding the text to show (a
 * text, or a list of paragraphs); without it the field's description is shown.
 */
export function TermsWidget(props: WidgetProps) {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const { extras } = stepContext(props.registry);
  const textExtra = typeof props.options.textExtra === 'string' ? lookup(extras, props.options.textExtra) : undefined;
  const paragraphs = (Array.isArray(textExtra) ? textExtra : [textExtra ?? props.schema.description]).filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
  const agreed = props.value === true;
  const error = errorOf(props);
  return (
    <div className="ds-c-field-container ef-terms">
      <p className="ds-u-font-weight--bold ds-u-margin-bottom--1">{labelOf(props)}</p>
      {error && <InlineError id={`${props.id}__error`}>{error}</InlineError>}
      <Button id={props.id} variation="ghost" onClick={() => setOpen(true)} disabled={props.disabled || props.readonly}>
        <Trans id="View Terms and Conditions" />
      </Button>
      <p className="ds-u-margin-y--1" aria-live="polite">
        {agreed ? i18n._('You agreed to the Terms and Conditions.') : ''}
      </p>
      <Dialog
        isOpen={open}
        onExit={() => setOpen(false)}
        heading={i18n._('Terms and Conditions')}
        actions={
          <>
            <Button variation="solid" className="ds-u-margin-right--1" onClick={() => { props.onChange(true); setOpen(false); }}>
              <Trans id="Agree" />
            </Button>
            <Button variation="ghost" onClick={() => setOpen(false)}>
              <Trans id="Cancel" />
            </Button>
          </>
        }
      >
        {paragraphs.length > 0 ? (
          paragraphs.map((p) => <p key={p}>{p}</p>)
        ) : (
          <p>
            <Trans id="Please read the Terms and Conditions of your coverage before you purchase it." />
          </p>
        )}
      </Dialog>
    </div>
  );
}
