import { Fragment, type ChangeEvent, type ReactNode } from 'react';
import type { FormProps } from '@rjsf/core';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import { Button, InlineError, Label } from '@cmsgov/design-system';
import {
  getUiOptions,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
} from '@rjsf/utils';
import { resolveLink } from '../utils/links';
import { getAt, isRecord, type FieldPath } from '../utils/paths';
import { placeSections, type SectionView } from '../utils/sections';
import { stepContext } from './form-context';
import { StepLink, SummarySections } from './summary-sections';

// The Enrollflow theme's templates: fields without RJSF's bootstrap markup (each widget draws its own
// CMS label, hint and error), cards for nested objects and list items, and the form files' options:
//   object: addLabel / removeLabel (an optional section: "Add a spouse" / "Remove"), addable,
//           removable, title, titleField, copyFrom (`extras.copy_from` / `extras.copy_fields`);
//   array:  addLabel / removeLabel / itemTitle, addable, removable (Add is disabled at maxItems);
//   form:   requiredLegend, sectionTitle; the summary sections (`ui:sections`, resolved by the step
//           form into `efSections`) among the fields; `efClosed`: the sections only;
//   field:  link (a link under the field, utils/links.ts).

function errorsOf(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : [];
}

function Errors({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <InlineError id={id} className="ef-group-error">
      {messages.length === 1 ? messages[0] : messages.map((m) => <span key={m} className="ef-error-line">{m}</span>)}
    </InlineError>
  );
}

export function FieldTemplate({ children, hidden, uiSchema, registry }: FieldTemplateProps) {
  const options = getUiOptions(uiSchema, registry.globalUiOptions);
  if (hidden || options.efHidden === true) return null;
  const ctx = stepContext(registry);
  const link = options.link === undefined ? null : resolveLink(options.link, ctx.extras);
  return (
    <div className="ef-field">
      {children}
      {link && (
        <p className="ef-field__link">
          <StepLink link={link} ctx={ctx} />
        </p>
      )}
    </div>
  );
}

const pathLabel = (p: FieldPath) => p.map(String).join('/');

/** "Copy from": fills a card's fields from another member's card (spec part 2, PCP Selection). */
function CopyFrom({ id, path, registry }: { id: string; path: FieldPath; registry: ObjectFieldTemplateProps['registry'] }) {
  const { i18n } = useLingui();
  const ctx = stepContext(registry);
  const sources = (Array.isArray(ctx.extras.copy_from) ? ctx.extras.copy_from : [])
    .filter(isRecord)
    .filter((s) => typeof s.path === 'string' && s.path !== pathLabel(path));
  const fields = Array.isArray(ctx.extras.copy_fields) ? ctx.extras.copy_fields.filter((f): f is string => typeof f === 'string') : [];
  if (sources.length === 0 || fields.length === 0) return null;
  const copy = (index: number) => {
    const source = sources[index];
    if (!source) return;
    const from = String(source.path)
      .split('/')
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const data = ctx.getFormData();
    for (const f of fields) ctx.setAt([...path, f], getAt(data, [...from, f]));
  };
  const selectId = `${id}__copy`;
  return (
    <div className="ds-u-clearfix ef-copy-from">
      <Label fieldId={selectId}>
        <Trans id="Copy from" />
      </Label>
      <select
        id={selectId}
        className="ds-c-field ds-c-field--medium"
        value=""
        onChange={(e: ChangeEvent<HTMLSelectElement>) => {
          if (e.target.value !== '') copy(Number(e.target.value));
        }}
      >
        <option value="">{i18n._('Select a member')}</option>
        {sources.map((s, i) => (
          <option key={String(s.path)} value={String(i)}>
            {String(s.label ?? s.path)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A card's Remove button, named for the card ("Remove Spouse"): the form file's label with the
 * card's title, else the app's own words. `title` null: a list item without a title (its number).
 */
function removeName(i18n: I18n, label: string | null, title: string | null, n: number): string {
  // A label and a title of the form file (both already in the page's language) are put side by side.
  if (label !== null) return title === null ? i18n._('{label} item {n}', { label, n }) : `${label} ${title}`.trim();
  if (title === null) return i18n._('Remove item {n}', { n });
  return title === '' ? i18n._('Remove') : i18n._('Remove {title}', { title });
}

export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { i18n } = useLingui();
  const { properties, uiSchema, registry, fieldPathId, formData, errorSchema, schema, required } = props;
  const options = getUiOptions(uiSchema, registry.globalUiOptions);
  const ctx = stepContext(registry);
  const path = fieldPathId.path;
  const errors = <Errors id={`${fieldPathId.$id}__error`} messages={errorsOf(errorSchema?.__errors)} />;
  const content = properties.map((p) => p.content);

  if (path.length === 0) {
    const sectionTitle = typeof options.sectionTitle === 'string' ? options.sectionTitle : null;
    const closed = options.efClosed === true;
    const sections = Array.isArray(options.efSections) ? (options.efSections as SectionView[]) : [];
    const placed = placeSections(
      sections,
      properties.map((p) => p.name),
    );
    return (
      <div className="ef-form-fields">
        <SummarySections sections={placed.top} ctx={ctx} />
        {!closed && sectionTitle && <h2 className="ds-text-heading--xl">{sectionTitle}</h2>}
        {!closed && errors}
        {properties.map((p) => (
          <Fragment key={p.name}>
            <SummarySections sections={placed.before(p.name)} ctx={ctx} />
            {!closed && p.content}
            <SummarySections sections={placed.after(p.name)} ctx={ctx} />
          </Fragment>
        ))}
        <SummarySections sections={placed.bottom} ctx={ctx} />
      </div>
    );
  }

  const inList = typeof path.at(-1) === 'number';
  const title = typeof options.efTitle === 'string' ? options.efTitle : typeof schema.title === 'string' ? schema.title : '';
  const optional = !inList && !required && options.addable !== false && typeof options.addLabel === 'string';
  if (optional && formData === undefined) {
    return (
      <div className="ef-add-section">
        {errors}
        <Button variation="ghost" onClick={() => ctx.setAt(path, {})}>
          {String(options.addLabel)}
        </Button>
      </div>
    );
  }
  const removable = optional && options.removable !== false;
  const removeLabel = options.removeLabel === undefined || options.removeLabel === null ? null : String(options.removeLabel);
  return (
    <fieldset className="ef-card" id={fieldPathId.$id}>
      {title && <legend className="ef-card__title ds-text-heading--lg">{title}</legend>}
      {errors}
      {options.copyFrom === true && <CopyFrom id={fieldPathId.$id} path={path} registry={registry} />}
      {content}
      {removable && (
        <Button variation="ghost" size="small" className="ef-card__remove" aria-label={removeName(i18n, removeLabel, title, 0)} onClick={() => ctx.setAt(path, undefined)}>
          {removeLabel ?? i18n._('Remove')}
        </Button>
      )}
    </fieldset>
  );
}

export function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { i18n } = useLingui();
  const { items, uiSchema, registry, onAddClick, fieldPathId, schema, rawErrors, disabled, readonly } = props;
  const options = getUiOptions(uiSchema, registry.globalUiOptions);
  const addable = options.addable !== false && !disabled && !readonly;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const atMax = items.length >= max;
  const label = typeof options.addLabel === 'string' ? options.addLabel : i18n._('Add');
  return (
    <div className="ef-list" id={fieldPathId.$id}>
      <Errors id={`${fieldPathId.$id}__error`} messages={errorsOf(rawErrors)} />
      {items}
      {addable && (
        <div className="ef-list__add">
          <Button variation="ghost" onClick={onAddClick} disabled={atMax} aria-describedby={atMax ? `${fieldPathId.$id}__max` : undefined}>
            {label}
          </Button>
          {atMax && (
            <p id={`${fieldPathId.$id}__max`} className="ds-c-hint">
              <Trans id="No more than {max} may be added." values={{ max }} />
            </p>
          )}
        </div>
      )}
    </div>
  );
}

export function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { i18n } = useLingui();
  const { children, buttonsProps, parentUiSchema, uiSchema, registry } = props;
  const parent = getUiOptions(parentUiSchema, registry.globalUiOptions);
  const own = getUiOptions(uiSchema, registry.globalUiOptions);
  const removable = parent.removable !== false && buttonsProps.hasRemove && !buttonsProps.disabled && !buttonsProps.readonly;
  const removeLabel = typeof parent.removeLabel === 'string' ? parent.removeLabel : null;
  const title = typeof own.efTitle === 'string' ? own.efTitle : null;
  return (
    <div className="ef-list__item">
      {children}
      {removable && (
        <Button
          variation="ghost"
          size="small"
          className="ef-card__remove"
          aria-label={removeName(i18n, removeLabel, title, props.index + 1)}
          onClick={buttonsProps.onRemoveItem}
        >
          {removeLabel ?? i18n._('Remove')}
        </Button>
      )}
    </div>
  );
}

const Nothing = (): ReactNode => null;

/** The theme's templates (RJSF keeps its own for what is not listed). */
export const STEP_TEMPLATES: FormProps['templates'] = {
  FieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  ButtonTemplates: { SubmitButton: Nothing },
};

