// Read-only summary sections of a form step (`ui:sections` in a form file's `ui`), drawn from the
// view's extras (and the answers) around the fields:
//
//   "ui:sections":
//     - title: Applicants                      # a heading (optional)
//       table:                                 # a table: one row per item of a list
//         source: applicants                   # dotted path into the extras (or the answers)
//         caption: …                           # optional; the title otherwise
//         columns: [{ key: name, title: Name }, { key: birth_date, title: Birth Date, format: date }]
//         total: { label: Total, column: rate, key: plans.total }   # optional last row
//         empty: No plans were chosen.         # optional; without it an empty table is not shown
//     - title: Contact Information
//       details:                               # label / value rows (rows without a value are left out)
//         source: contact                      # optional: keys are read under it
//         items: [{ key: email, title: Email }, { key: primary_phone, title: Primary Phone, format: phone, note_key: primary_phone_type }]
//     - title: Submitting Documents
//       when: qualifying_event                 # shown only while these extras are given …
//       unless: submitted                      # … and these are not
//       showWhen: { enrollment_type: qle }     # … and the answers have these values (as fields' ui:showWhen)
//       after: enrollment_reason_file_name     # where: before/after a field; at the top of the form otherwise
//       text: "Documents are due by {document_due_date}."  # a paragraph or a list of them
//       cards: { source: document_contacts, title: "{name}", items: [{ key: email, title: Email }] }
//       links: [{ label: Terms of Use, document: /api/legal/terms }]   # see links.ts
//
// Formats of values: see format.ts. `{placeholders}` in texts and titles read the extras and the
// answers (and, in a card title, the card's item). A section with nothing to show is left out (a
// section of a title alone is a heading among the fields).

import { formatValue } from './format';
import { resolveLink, type LinkView } from './links';
import { isRecord } from './paths';
import { fillTemplate, isTruthy, lookup } from './template';
import { translate, type Translate } from './translate';
import { showWhenHolds } from './ui-schema';

/** A table's last row without a `label` of the form file's. */
const TOTAL = /*i18n*/ { id: 'Total' };

export interface DetailRow {
  title: string;
  lines: string[];
}

export interface TableColumn {
  title: string;
  /** Figures (money) are aligned right. */
  numeric: boolean;
}

export interface TableView {
  caption: string | null;
  columns: TableColumn[];
  /** Rows of cells, each cell its lines. */
  rows: string[][][];
  /** The last row: its label in the first cell. */
  total: string[][] | null;
  /** Shown instead of the table when it has no rows. */
  empty: string | null;
}

export interface CardView {
  title: string;
  rows: DetailRow[];
}

export interface SectionView {
  key: string;
  title: string | null;
  before: string | null;
  after: string | null;
  paragraphs: string[];
  details: DetailRow[];
  table: TableView | null;
  cards: CardView[];
  links: LinkView[];
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const names = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

/** Whether a section (or anything with `when` / `unless` / `showWhen`) is shown for these values. */
export function conditionsHold(spec: Json, values: Json, answers: unknown): boolean {
  if (!names(spec.when).every((n) => isTruthy(lookup(values, n)))) return false;
  if (names(spec.unless).some((n) => isTruthy(lookup(values, n)))) return false;
  return spec.showWhen === undefined || showWhenHolds(spec.showWhen, answers, answers);
}

function detailRows(items: unknown, source: unknown, values: Json, t?: Translate): DetailRow[] {
  return list(items)
    .filter(isRecord)
    .flatMap((item): DetailRow[] => {
      const title = str(item.title) ? fillTemplate(String(item.title), values) : '';
      const raw = typeof item.key === 'string' ? lookup(source, item.key) : typeof item.text === 'string' ? fillTemplate(item.text, values) : undefined;
      const lines = formatValue(raw, item.format, t);
      if (lines.length === 0) return [];
      const note = typeof item.note_key === 'string' ? formatValue(lookup(source, item.note_key), undefined, t)[0] : undefined;
      if (note) lines[lines.length - 1] = `${lines[lines.length - 1]} (${note})`;
      return [{ title, lines }];
    });
}

function details(spec: unknown, values: Json, t?: Translate): DetailRow[] {
  if (Array.isArray(spec)) return detailRows(spec, values, values, t);
  if (!isRecord(spec)) return [];
  const source = typeof spec.source === 'string' ? lookup(values, spec.source) : values;
  return detailRows(spec.items, source, values, t);
}

function table(spec: unknown, values: Json, title: string | null, t?: Translate): TableView | null {
  if (!isRecord(spec)) return null;
  const columns = list(spec.columns).filter(isRecord);
  if (columns.length === 0) return null;
  const items = typeof spec.source === 'string' ? list(lookup(values, spec.source)) : [];
  const rows = items.map((item) => columns.map((c) => (typeof c.key === 'string' ? formatValue(lookup(item, c.key), c.format, t) : [])));
  let total: string[][] | null = null;
  if (isRecord(spec.total) && typeof spec.total.key === 'string') {
    const last = spec.total;
    const value = lookup(values, String(last.key));
    if (value !== undefined && value !== null) {
      total = columns.map((c, i) => {
        if (c.key === last.column) return formatValue(value, c.format, t);
        return i === 0 ? [str(last.label) ?? translate(t, TOTAL)] : [];
      });
    }
  }
  const empty = str(spec.empty) ? fillTemplate(String(spec.empty), values) : null;
  if (rows.length === 0 && empty === null) return null;
  return {
    caption: str(spec.caption) ? fillTemplate(String(spec.caption), values) : title,
    columns: columns.map((c) => ({ title: str(c.title) ?? '', numeric: c.format === 'money' })),
    rows,
    total,
    empty,
  };
}

function cards(spec: unknown, values: Json, t?: Translate): CardView[] {
  if (!isRecord(spec) || typeof spec.source !== 'string') return [];
  return list(lookup(values, spec.source))
    .filter(isRecord)
    .map((item) => ({
      title: str(spec.title) ? fillTemplate(String(spec.title), { ...values, ...item }).trim() : '',
      rows: detailRows(spec.items, item, { ...values, ...item }, t),
    }))
    .filter((c) => c.rows.length > 0);
}

/**
 * The sections to draw for the extras and the answers as they are now, in the form file's order;
 * the app's own words through `t`, the page's translation function (English without one).
 */
export function resolveSections(spec: unknown, extras: Json, answers: unknown, t?: Translate): SectionView[] {
  const values: Json = { ...extras, ...(isRecord(answers) ? answers : {}) };
  return list(spec)
    .filter(isRecord)
    .flatMap((s, i): SectionView[] => {
      if (!conditionsHold(s, values, answers)) return [];
      const title = str(s.title) ? fillTemplate(String(s.title), values) : null;
      const section: SectionView = {
        key: str(s.id) ?? `section-${i}`,
        title,
        before: str(s.before),
        after: str(s.after),
        paragraphs: names(s.text)
          .map((t) => fillTemplate(t, values).trim())
          .filter((t) => t !== ''),
        details: details(s.details, values, t),
        table: table(s.table, values, title, t),
        cards: cards(s.cards, values, t),
        links: list(s.links)
          .map((l) => resolveLink(l, values))
          .filter((l): l is LinkView => l !== null),
      };
      const declared = ['text', 'details', 'table', 'cards', 'links'].some((k) => s[k] !== undefined);
      const empty =
        section.paragraphs.length === 0 &&
        section.details.length === 0 &&
        section.table === null &&
        section.cards.length === 0 &&
        section.links.length === 0;
      // A heading alone is a section; a section whose contents are all missing is not shown.
      if (declared ? empty : title === null) return [];
      return [section];
    });
}

/** Sections by where they go among the fields (`order`: the fields' names as drawn). */
export function placeSections(sections: SectionView[], order: readonly string[]) {
  const known = new Set(order);
  const before = new Map<string, SectionView[]>();
  const after = new Map<string, SectionView[]>();
  const top: SectionView[] = [];
  const bottom: SectionView[] = [];
  const add = (map: Map<string, SectionView[]>, key: string, s: SectionView) => map.set(key, [...(map.get(key) ?? []), s]);
  for (const s of sections) {
    if (s.before && known.has(s.before)) add(before, s.before, s);
    else if (s.after && known.has(s.after)) add(after, s.after, s);
    // A field the form does not have now (only_when): after the fields.
    else if (s.before || s.after) bottom.push(s);
    else top.push(s);
  }
  return { top, bottom, before: (name: string) => before.get(name) ?? [], after: (name: string) => after.get(name) ?? [] };
}
