import { describe, expect, it } from 'vitest';
import { placeSections, resolveSections } from './sections';

// A slice of forms/review_purchase.form.yaml and of what purchase::extras gives.
const sections = [
  {
    id: 'applicants',
    title: 'Applicants',
    table: {
      source: 'applicants',
      columns: [
        { key: 'name', title: 'Name' },
        { key: 'birth_date', title: 'Birth Date', format: 'date' },
        { key: 'tobacco', title: 'Tobacco' },
      ],
    },
  },
  {
    id: 'contact',
    title: 'Contact and Billing Information',
    details: {
      source: 'contact',
      items: [
        { key: 'email', title: 'Email' },
        { key: 'primary_phone', title: 'Primary Phone', format: 'phone', note_key: 'primary_phone_type' },
        { key: 'alternate_phone', title: 'Alternate Phone', format: 'phone' },
        { key: 'billing_address', title: 'Billing Address', format: 'address' },
      ],
    },
  },
  {
    id: 'plans',
    title: 'Your Plans',
    table: {
      source: 'plans.list',
      caption: 'Plans and premiums',
      columns: [
        { key: 'product', title: 'Coverage' },
        { key: 'rate', title: 'Monthly Premium', format: 'money' },
      ],
      total: { label: 'Total Monthly Premium', column: 'rate', key: 'plans.total' },
      empty: 'No plans were chosen.',
    },
  },
  {
    id: 'documents',
    when: 'qualifying_event',
    unless: 'submitted',
    title: 'Submitting Documents',
    text: 'Send them by {document_due_date}:',
    cards: { source: 'document_contacts', title: '{name}', items: [{ key: 'fax', title: 'Fax', format: 'phone' }, { key: 'mail', title: 'Mail', format: 'lines' }] },
  },
  { id: 'oe', after: 'enrollment_type', showWhen: { enrollment_type: 'oe' }, text: 'Open until {oep.end_date}.' },
  { id: 'home', when: 'submitted', links: [{ label: 'Return Home', action: 'home' }] },
  { id: 'nothing', title: 'Nothing', details: { source: 'contact', items: [{ key: 'missing', title: 'Missing' }] } },
];

const extras = {
  applicants: [
    { name: 'Ann B Lee', birth_date: '1985-03-02', tobacco: 'N' },
    { name: 'Bob Lee', birth_date: '1984-07-09', tobacco: 'Y' },
  ],
  contact: {
    email: 'ann@example.com',
    primary_phone: '3135550100',
    primary_phone_type: 'Cell',
    alternate_phone: null,
    billing_address: { street: '1 Main St', city: 'Ann Arbor', state: 'MI', zip: '48104' },
  },
  plans: { list: [{ product: 'Medical', rate: 612.5 }, { product: 'Dental', rate: 35 }], total: 647.5 },
  qualifying_event: true,
  document_due_date: '2024-12-20',
  document_contacts: [{ name: 'Priority Health', fax: '6165550103', mail: ['Priority Health', 'Grand Rapids, MI 49525'] }],
  oep: { end_date: '2025-01-15' },
  submitted: false,
};

describe('resolveSections', () => {
  it('builds tables, label/value rows and cards from the extras', () => {
    const out = resolveSections(sections, extras, {});
    expect(out.map((s) => s.key)).toEqual(['applicants', 'contact', 'plans', 'documents']);
    const [applicants, contact, plans, documents] = out;
    expect(applicants?.table?.columns.map((c) => c.title)).toEqual(['Name', 'Birth Date', 'Tobacco']);
    expect(applicants?.table?.rows).toEqual([
      [['Ann B Lee'], ['03/02/1985'], ['N']],
      [['Bob Lee'], ['07/09/1984'], ['Y']],
    ]);
    // The caption is the section's title unless the table names its own.
    expect(applicants?.table?.caption).toBe('Applicants');
    // A row without a value is left out; a note goes after the value.
    expect(contact?.details).toEqual([
      { title: 'Email', lines: ['ann@example.com'] },
      { title: 'Primary Phone', lines: ['(313) 555-0100 (Cell)'] },
      { title: 'Billing Address', lines: ['1 Main St', 'Ann Arbor, MI 48104'] },
    ]);
    expect(plans?.table).toMatchObject({
      caption: 'Plans and premiums',
      columns: [
        { title: 'Coverage', numeric: false },
        { title: 'Monthly Premium', numeric: true },
      ],
      rows: [[['Medical'], ['$612.50']], [['Dental'], ['$35.00']]],
      total: [['Total Monthly Premium'], ['$647.50']],
    });
    expect(documents?.paragraphs).toEqual(['Send them by 12/20/2024:']);
    expect(documents?.cards).toEqual([
      { title: 'Priority Health', rows: [{ title: 'Fax', lines: ['(616) 555-0103'] }, { title: 'Mail', lines: ['Priority Health', 'Grand Rapids, MI 49525'] }] },
    ]);
  });

  it('follows when, unless and showWhen, and shows an empty table only with its text', () => {
    const after = resolveSections(sections, { ...extras, submitted: true, plans: { list: [], total: null } }, { enrollment_type: 'oe' });
    expect(after.map((s) => s.key)).toEqual(['applicants', 'contact', 'plans', 'oe', 'home']);
    expect(after.find((s) => s.key === 'plans')?.table).toMatchObject({ rows: [], total: null, empty: 'No plans were chosen.' });
    expect(after.find((s) => s.key === 'oe')).toMatchObject({ after: 'enrollment_type', paragraphs: ['Open until 01/15/2025.'] });
    expect(after.find((s) => s.key === 'home')?.links).toEqual([{ label: 'Return Home', kind: 'home', href: '/' }]);
    // Only the table that has its own text for no rows.
    expect(resolveSections(sections, {}, {}).map((s) => s.key)).toEqual(['plans']);
    expect(resolveSections(undefined, extras, {})).toEqual([]);
    // A title alone is a heading; declared contents that are all missing are not.
    expect(resolveSections([{ title: 'Signatures' }, { title: 'Gone', text: '{missing}' }], {}, {}).map((s) => s.title)).toEqual(['Signatures']);
  });
});

describe('placeSections', () => {
  it('puts sections before or after their field, at the top without one, at the bottom when the field is gone', () => {
    const all = resolveSections(
      [
        { id: 'top', text: 'Top' },
        { id: 'b', before: 'agree_tc', text: 'Before terms' },
        { id: 'a', after: 'enrollment_type', text: 'After type' },
        { id: 'gone', after: 'agent_signature', text: 'Agents only' },
      ],
      {},
      {},
    );
    const placed = placeSections(all, ['enrollment_type', 'agree_tc']);
    expect(placed.top.map((s) => s.key)).toEqual(['top']);
    expect(placed.before('agree_tc').map((s) => s.key)).toEqual(['b']);
    expect(placed.after('enrollment_type').map((s) => s.key)).toEqual(['a']);
    expect(placed.bottom.map((s) => s.key)).toEqual(['gone']);
    expect(placed.after('agree_tc')).toEqual([]);
  });
});
