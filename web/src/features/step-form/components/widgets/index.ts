import type { RegistryWidgetsType } from '@rjsf/utils';
import { CheckboxWidget, CheckboxesWidget, QleListWidget, RadioWidget, SelectWidget, TobaccoWidget } from './choice-widgets';
import { CountyWidget } from './county-widget';
import { FileWidget } from './file-widget';
import { TermsWidget } from './terms-widget';
import {
  NpiWidget,
  PhoneWidget,
  SignatureWidget,
  SsnWidget,
  TextWidget,
  TextareaWidget,
  UsDateWidget,
  ZipWidget,
} from './text-widgets';

const Nothing = () => null;

/**
 * The widgets the form files name (`ui:widget`), on the CMS Design System. RJSF's own names are
 * replaced too, so every field is drawn the same way.
 */
export const STEP_WIDGETS: RegistryWidgetsType = {
  // RJSF's names (its defaults for each schema type).
  TextWidget,
  TextareaWidget,
  EmailWidget: TextWidget,
  URLWidget: TextWidget,
  PasswordWidget: TextWidget,
  DateWidget: UsDateWidget,
  SelectWidget,
  RadioWidget,
  CheckboxWidget,
  CheckboxesWidget,
  HiddenWidget: Nothing,
  FileWidget,
  text: TextWidget,
  textarea: TextareaWidget,
  select: SelectWidget,
  radio: RadioWidget,
  checkbox: CheckboxWidget,
  checkboxes: CheckboxesWidget,
  hidden: Nothing,
  date: UsDateWidget,
  file: FileWidget,
  // The forms' own names.
  'us-date': UsDateWidget,
  ssn: SsnWidget,
  phone: PhoneWidget,
  zip: ZipWidget,
  npi: NpiWidget,
  tobacco: TobaccoWidget,
  county: CountyWidget,
  'qle-list': QleListWidget,
  signature: SignatureWidget,
  terms: TermsWidget,
  'pdf-upload': FileWidget,
  pdf: FileWidget,
  document: FileWidget,
};
