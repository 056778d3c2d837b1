// The server's UI schema (forms/*.form.yaml `ui:`) made into the UI schema RJSF draws, for the answers
// as they are now. What the form files say is applied here, generically:
// - `ui:showWhen: { field: value }`: the field shows only while its sibling (else the top-level field)
//   has that value (a list: any of them); hidden fields keep no place on the page;
// - `ui:widget: tobacco` with `ui:options.minAge`: disabled until the person (the sibling
//   `ui:options.birthField`, by default the field's name with `tobacco` -> `birth_date`) is that old at
//   `extras.age_reference_date` (today when absent);
// - `ui:widget: county` with `ui:options.zipField`: gets the sibling ZIP's value and path;
// - object cards: `ui:options.titleField` (a field of the card whose value titles it), `title`;
//   array items: `ui:options.itemTitle` on the array (`Dependent {n}`, `Dependent born {birth_date}`).
// Every field also gets its path (`ui:options.efPath`) so widgets and templates can find it.

import type { UiSchema } from '@rjsf/utils';
import { ageAt, isIsoDate, todayIso } from './dates';
import { isRecord, type FieldPath } from './paths';
import { fillTemplate } from './template';

export interface BuildContext {
  extras: Record<string, unknown>;
  /** ISO today (for ages when the extras name no reference date). */
  today?: string;
  /** Options for the form's own template (`efSections`, `efClosed`), merged into its `ui:options`. */
  rootOptions?: Record<string, unknown>;
}

/** Options the renderer adds to `ui:options` (prefixed `ef` so they never meet a form file's). */
export interface EfOptions {
  efPath?: FieldPath;
  efHidden?: boolean;
  efTitle?: string;
  zipValue?: unknown;
  zipPath?: FieldPath;
  /** The sibling state (`stateField`) of a county looked up by state and ZIP. */
  stateValue?: unknown;
}

type Json = Record<string, unknown>;

function equalsAny(expected: unknown, actual: unknown): boolean {
  return Array.isArray(expected) ? expected.some((e) => e === actual) : expected === actual;
}

/** Whether a `ui:showWhen` condition holds: every named field has its value (siblings first, then top level). */
export function showWhenHolds(condition: unknown, siblings: unknown, root: unknown): boolean {
  if (!isRecord(condition)) return true;
  return Object.entries(condition).every(([field, expected]) => {
    const local = isRecord(siblings) && field in siblings ? siblings[field] : isRecord(root) ? root[field] : undefined;
    return equalsAny(expected, local);
  });
}

function options(ui: Json): Json {
  return isRecord(ui['ui:options']) ? ui['ui:options'] : {};
}

/** The title a card shows: its `titleField`'s value, else `ui:options.title`, else the schema's. */
function cardTitle(ui: Json, schema: Json, data: unknown): string | undefined {
  const opts = options(ui);
  if (typeof opts.titleField === 'string' && isRecord(data)) {
    const v = data[opts.titleField];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  if (typeof opts.title === 'string') return opts.title;
  return typeof schema.title === 'string' ? schema.title : undefined;
}

function tobaccoDisabled(ui: Json, name: string, siblings: unknown, ctx: BuildContext): boolean {
  const opts = options(ui);
  const minAge = typeof opts.minAge === 'number' ? opts.minAge : null;
  if (minAge === null) return false;
  const birthField = typeof opts.birthField === 'string' ? opts.birthField : name.replace('tobacco', 'birth_date');
  const birth = isRecord(siblings) ? siblings[birthField] : undefined;
  const ref = ctx.extras.age_reference_date;
  const on = isIsoDate(ref) ? ref : (ctx.today ?? todayIso());
  const age = typeof birth === 'string' ? ageAt(birth, on) : null;
  return age === null || age < minAge;
}

function buildField(
  ui: Json,
  schema: Json,
  data: unknown,
  path: FieldPath,
  siblings: unknown,
  root: unknown,
  ctx: BuildContext,
  extra: Partial<EfOptions> = {},
): UiSchema {
  const { 'ui:showWhen': showWhen, items: itemsUi, ...rest } = ui;
  const out: Json = { ...rest };
  const opts: Json = { ...options(ui), ...extra, efPath: path };
  if (showWhen !== undefined && !showWhenHolds(showWhen, siblings, root)) opts.efHidden = true;

  const name = String(path.at(-1) ?? '');
  const parentPath = path.slice(0, -1);
  if (ui['ui:widget'] === 'tobacco' && tobaccoDisabled(ui, name, siblings, ctx)) out['ui:disabled'] = true;
  if (ui['ui:widget'] === 'county' && typeof opts.zipField === 'string') {
    opts.zipValue = isRecord(siblings) ? siblings[opts.zipField] : undefined;
    opts.zipPath = [...parentPath, opts.zipField];
    if (typeof opts.stateField === 'string') opts.stateValue = isRecord(siblings) ? siblings[opts.stateField] : undefined;
  }

  if (isRecord(schema.properties)) {
    if (path.length > 0 && opts.efTitle === undefined) {
      const title = cardTitle(ui, schema, data);
      if (title !== undefined) opts.efTitle = title;
    }
    for (const [prop, propSchema] of Object.entries(schema.properties)) {
      if (!isRecord(propSchema)) continue;
      const propUi = isRecord(ui[prop]) ? (ui[prop] as Json) : {};
      const propData = isRecord(data) ? data[prop] : undefined;
      out[prop] = buildField(propUi, propSchema, propData, [...path, prop], data, root, ctx);
    }
  }

  if (schema.type === 'array' && isRecord(schema.items) && isRecord(schema.items.properties)) {
    const itemSchema = schema.items;
    const itemUi = isRecord(itemsUi) ? itemsUi : {};
    const itemTitle = typeof opts.itemTitle === 'string' ? opts.itemTitle : null;
    out.items = (item: unknown, index: number) =>
      buildField(itemUi, itemSchema, item, [...path, index], item, root, ctx, {
        ...(itemTitle ? { efTitle: fillTemplate(itemTitle, { n: index + 1, ...(isRecord(item) ? item : {}) }) } : {}),
      });
  } else if (itemsUi !== undefined) {
    out.items = itemsUi;
  }

  out['ui:options'] = opts;
  return out as UiSchema;
}

/** The RJSF UI schema for a view's `ui` and `schema` and the answers so far. */
export function buildUiSchema(ui: unknown, schema: unknown, formData: unknown, ctx: BuildContext): UiSchema {
  const rootUi = isRecord(ui) ? ui : {};
  const rootSchema = isRecord(schema) ? schema : {};
  const built = buildField(rootUi, rootSchema, formData, [], undefined, formData, ctx) as Json;
  // Drawn by the step form itself: the summary sections and the Continue button.
  delete built['ui:sections'];
  built['ui:submitButtonOptions'] = { norender: true };
  if (ctx.rootOptions) built['ui:options'] = { ...(built['ui:options'] as Json), ...ctx.rootOptions };
  return built as UiSchema;
}

/** Whether the field at `path` is on the page (no hidden widget, no false `ui:showWhen` on the way). */
export function isFieldShown(ui: unknown, schema: unknown, formData: unknown, path: FieldPath): boolean {
  let u: unknown = ui;
  let s: unknown = schema;
  let parent: unknown = undefined;
  let data: unknown = formData;
  for (const seg of path) {
    if (!isRecord(u) || !isRecord(s)) return true;
    if (typeof seg === 'number') {
      u = u.items;
      s = s.items;
      parent = data;
      data = Array.isArray(data) ? data[seg] : undefined;
      continue;
    }
    u = u[seg];
    s = isRecord(s.properties) ? s.properties[seg] : undefined;
    parent = data;
    data = isRecord(data) ? data[seg] : undefined;
    if (!isRecord(u)) continue;
    if (u['ui:widget'] === 'hidden') return false;
    if (u['ui:showWhen'] !== undefined && !showWhenHolds(u['ui:showWhen'], parent, formData)) return false;
    if (isSingleChoiceSelect(u, s)) return false;
  }
  return true;
}

const CHOICE_WIDGETS_SHOWN_WITH_ONE = new Set(['radio', 'tobacco', 'checkbox', 'checkboxes', 'hidden']);

/** A select offering one choice is not shown: the choice is made for the user (spec part 1, 5). */
export function isSingleChoiceSelect(ui: unknown, schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const widget = isRecord(ui) ? ui['ui:widget'] : undefined;
  if (typeof widget === 'string' && CHOICE_WIDGETS_SHOWN_WITH_ONE.has(widget)) return false;
  const choices = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.enum) ? schema.enum : null;
  return choices !== null && choices.length === 1;
}
