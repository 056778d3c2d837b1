import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NARROW_SCREEN } from '@/lib/media';
import { useCare } from '../hooks/use-care';
import type { CareNeeds, CareSaved, DrugHit, MemberRate, ProviderHit } from '../types';
import { SAVE_CARE_FAILED } from './care-editor';
import { CarePanel } from './care-panel';

const MEMBERS: MemberRate[] = [
  { member: 'Subscriber', age: 41, amount: 300, rate: 300, charged: true },
  { member: 'Spouse', age: 43, amount: 320, rate: 320, charged: true },
];

const LEE: ProviderHit = { npi: '1234567893', name: 'Dr. Dana Lee', specialty: 'Family Medicine', city: 'Ann Arbor', kind: 'individual' };
const PATEL: ProviderHit = { npi: '1987654321', name: 'Dr. Raj Patel', specialty: 'Cardiology', city: 'Detroit', kind: 'individual' };
const CLINIC: ProviderHit = { npi: '1122334455', name: 'Lakeside Clinic', specialty: null, city: 'Ypsilanti', kind: 'facility' };
const METFORMIN: DrugHit = { rxnorm_id: '861007', name: 'metformin 500 MG Oral Tablet' };
const ATORVASTATIN: DrugHit = { rxnorm_id: '617310', name: 'atorvastatin 20 MG Oral Tablet' };

interface Call {
  method: string;
  path: string;
  query: string | null;
  body: unknown;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const byNpi = new Map([LEE, PATEL, CLINIC].map((p) => [p.npi, p]));
const byRx = new Map([METFORMIN, ATORVASTATIN].map((d) => [d.rxnorm_id, d]));

/**
 * A fake server: GET /api/care answers `stored`; PUT /api/care stores the body (its ids named
 * again) unless `save` answers otherwise; the searches find by name.
 */
function fakeServer(stored: CareNeeds, save?: (body: { uses: string[]; doctors: string[]; drugs: string[] }) => Response | Promise<Response | null> | null) {
  const calls: Call[] = [];
  let care = stored;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://acme.localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname, query: url.searchParams.get('q'), body });
      if (url.pathname === '/api/care' && method === 'GET') return json(care);
      if (url.pathname === '/api/care' && method === 'PUT') {
        const answer = await save?.(body);
        if (answer) return answer;
        care = { uses: body.uses, doctors: body.doctors.map((n: string) => byNpi.get(n)!), drugs: body.drugs.map((r: string) => byRx.get(r)!) };
        return json({ care, application: { applicationId: 'a' } });
      }
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      if (url.pathname === '/api/coverage/providers') return json([...byNpi.values()].filter((p) => p.name.toLowerCase().includes(q)));
      if (url.pathname === '/api/coverage/drugs') return json([...byRx.values()].filter((d) => d.name.toLowerCase().includes(q)));
      return json({ error: 'no' }, 404);
    }),
  );
  return calls;
}

/** The panel as the plan page draws it: the household's list through `useCare`. */
function Harness({ onSaved }: { onSaved: (saved: CareSaved) => void }) {
  const care = useCare(true, onSaved);
  if (!care.shown) return null;
  return <CarePanel members={MEMBERS} estimated care={care.shown} saving={care.saving} failed={care.failed} onChange={care.change} />;
}

function renderPanel() {
  const saved: CareSaved[] = [];
  render(<Harness onSaved={(s) => saved.push(s)} />);
  return saved;
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);
const summary = () => document.querySelector('.ef-care summary') as HTMLElement;
const panel = () => document.querySelector('details.ef-care') as HTMLDetailsElement;

function openPanel() {
  const details = panel();
  details.open = true;
  fireEvent(details, new Event('toggle'));
}

/** Types into a search and picks the first hit with the keyboard. */
async function addFirst(label: string, text: string) {
  const input = (await screen.findByRole('combobox', { name: label })) as HTMLInputElement;
  fireEvent.change(input, { target: { value: text } });
  await screen.findByRole('listbox', { name: label });
  fireEvent.keyDown(input, { key: 'ArrowDown' });
  fireEvent.keyDown(input, { key: 'Enter' });
  return input;
}

const doctorsSection = () => screen.getByRole('region', { name: 'Your doctors' });
const drugsSection = () => screen.getByRole('region', { name: 'Your prescriptions' });
const names = (section: HTMLElement) => within(section).queryAllByRole('listitem').map((li) => li.querySelector('.ef-care__name')?.textContent);

describe('CarePanel ("Your care")', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('counts the doctors and prescriptions in its summary and, on a wide screen, opens when the household lists some', async () => {
    fakeServer({ uses: ['medium', 'high'], doctors: [LEE], drugs: [METFORMIN, ATORVASTATIN] });
    renderPanel();
    await waitFor(() => expect(summary().textContent).toContain('Your care: 1 doctor, 2 prescriptions'));
    expect(panel().open).toBe(true);
    // The lists come with the editor, loaded when the panel opens.
    const doctors = await screen.findByRole('region', { name: 'Your doctors' });
    const lee = within(doctors).getByRole('listitem');
    expect(lee.textContent).toContain('Dr. Dana Lee');
    expect(lee.textContent).toContain('Family Medicine · Ann Arbor');
    expect(within(lee).getByRole('button', { name: 'Remove Dr. Dana Lee' })).toBeTruthy();
    expect(names(drugsSection())).toEqual([METFORMIN.name, ATORVASTATIN.name]);
    expect((screen.getByLabelText('Spouse, age 43') as HTMLSelectElement).value).toBe('high');
  });

  it('starts closed without doctors or drugs; opened, it offers both searches', async () => {
    fakeServer({ uses: ['medium', 'medium'], doctors: [], drugs: [] });
    renderPanel();
    await waitFor(() => expect(summary()).toBeTruthy());
    expect(summary().textContent).toContain('Your care');
    expect(summary().textContent).not.toContain('doctors,');
    expect(panel().open).toBe(false);
    expect(screen.queryByRole('combobox')).toBeNull();
    openPanel();
    expect(await screen.findByRole('combobox', { name: 'Add a doctor or facility' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Add a prescription drug' })).toBeTruthy();
    expect(within(doctorsSection()).getByText('No doctors added yet.')).toBeTruthy();
    expect(within(drugsSection()).getByText('No prescriptions added yet.')).toBeTruthy();
  });

  describe('on a phone', () => {
    beforeEach(() => {
      vi.stubGlobal(
        'matchMedia',
        vi.fn((query: string) => ({ matches: query === NARROW_SCREEN, media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
      );
    });

    it('stays closed even when the household lists doctors and drugs', async () => {
      fakeServer({ uses: ['medium', 'medium'], doctors: [LEE], drugs: [METFORMIN] });
      renderPanel();
      await waitFor(() => expect(summary().textContent).toContain('Your care: 1 doctor, 1 prescription'));
      expect(panel().open).toBe(false);
      expect(screen.queryByRole('region', { name: 'Your doctors' })).toBeNull();
    });
  });

  it('adds a doctor: the whole list is saved (uses, NPIs, RxNorm ids), then listed and counted', async () => {
    const calls = fakeServer({ uses: ['low', 'high'], doctors: [LEE], drugs: [METFORMIN] });
    const saved = renderPanel();
    await screen.findByRole('region', { name: 'Your doctors' });
    const input = await addFirst('Add a doctor or facility', 'patel');
    expect(calls.find((c) => c.path === '/api/coverage/providers')?.query).toBe('patel');
    expect(input.value).toBe('');
    await waitFor(() => expect(puts(calls)).toEqual([{ uses: ['low', 'high'], doctors: [LEE.npi, PATEL.npi], drugs: [METFORMIN.rxnorm_id] }]));
    await waitFor(() => expect(summary().textContent).toContain('Your care: 2 doctors, 1 prescription'));
    expect(names(doctorsSection())).toEqual([LEE.name, PATEL.name]);
    expect(saved).toHaveLength(1);
    expect(screen.getAllByRole('status').some((s) => s.textContent === 'Added Dr. Raj Patel')).toBe(true);
  });

  it('adds a prescription and shows a facility as such', async () => {
    const calls = fakeServer({ uses: ['medium', 'medium'], doctors: [], drugs: [] });
    renderPanel();
    await waitFor(() => expect(summary()).toBeTruthy());
    openPanel();
    await addFirst('Add a prescription drug', 'atorva');
    await waitFor(() => expect(puts(calls)).toEqual([{ uses: ['medium', 'medium'], doctors: [], drugs: [ATORVASTATIN.rxnorm_id] }]));
    await addFirst('Add a doctor or facility', 'lakeside');
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]).toEqual({ uses: ['medium', 'medium'], doctors: [CLINIC.npi], drugs: [ATORVASTATIN.rxnorm_id] });
    await waitFor(() => expect(within(doctorsSection()).getByRole('listitem').textContent).toContain('Facility · Ypsilanti'));
    expect(summary().textContent).toContain('Your care: 1 doctor, 1 prescription');
  });

  it('removes a doctor: the list without it is saved and the focus goes to the next Remove', async () => {
    const calls = fakeServer({ uses: ['medium', 'medium'], doctors: [LEE, PATEL, CLINIC], drugs: [METFORMIN] });
    renderPanel();
    const doctors = await screen.findByRole('region', { name: 'Your doctors' });
    fireEvent.click(within(doctors).getByRole('button', { name: 'Remove Dr. Raj Patel' }));
    expect(names(doctorsSection())).toEqual([LEE.name, CLINIC.name]);
    expect(document.activeElement).toBe(within(doctorsSection()).getByRole('button', { name: 'Remove Lakeside Clinic' }));
    await waitFor(() => expect(puts(calls)).toEqual([{ uses: ['medium', 'medium'], doctors: [LEE.npi, CLINIC.npi], drugs: [METFORMIN.rxnorm_id] }]));
    await waitFor(() => expect(summary().textContent).toContain('Your care: 2 doctors, 1 prescription'));
  });

  it('says it is saving while a change is on its way', async () => {
    let answer: (r: Response) => void = () => {};
    const calls = fakeServer({ uses: ['medium', 'medium'], doctors: [LEE], drugs: [] }, () => new Promise<Response>((r) => (answer = r)));
    renderPanel();
    const doctors = await screen.findByRole('region', { name: 'Your doctors' });
    fireEvent.click(within(doctors).getByRole('button', { name: 'Remove Dr. Dana Lee' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(document.querySelector('.ef-care__status')?.textContent).toBe('Saving…');
    // The focus goes to the search once the list is empty.
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Add a doctor or facility' }));
    await act(async () => answer(json({ care: { uses: ['medium', 'medium'], doctors: [], drugs: [] }, application: {} })));
    await waitFor(() => expect(document.querySelector('.ef-care__status')?.textContent).toBe(''));
  });

  it('keeps the last saved list when a save fails, and says so', async () => {
    const calls = fakeServer({ uses: ['medium', 'medium'], doctors: [LEE], drugs: [METFORMIN] }, () => json({ error: 'Something went wrong!' }, 500));
    const saved = renderPanel();
    await screen.findByRole('region', { name: 'Your doctors' });
    await addFirst('Add a doctor or facility', 'patel');
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect((await screen.findByRole('alert')).textContent).toBe(SAVE_CARE_FAILED.id);
    expect(names(doctorsSection())).toEqual([LEE.name]);
    expect(summary().textContent).toContain('Your care: 1 doctor, 1 prescription');
    expect(saved).toEqual([]);

    // A removal that fails puts the drug back.
    fireEvent.click(within(drugsSection()).getByRole('button', { name: `Remove ${METFORMIN.name}` }));
    expect(names(drugsSection())).toEqual([]);
    await waitFor(() => expect(names(drugsSection())).toEqual([METFORMIN.name]));
    expect(screen.getByRole('alert').textContent).toBe(SAVE_CARE_FAILED.id);
  });

  it('sends a change made while another is saved after it, with both', async () => {
    const answers: (() => void)[] = [];
    const calls = fakeServer({ uses: ['medium', 'medium'], doctors: [LEE, PATEL], drugs: [METFORMIN] }, () => {
      // Each save waits for the test; null lets the fake server store it.
      return new Promise<null>((resolve) => answers.push(() => resolve(null)));
    });
    renderPanel();
    const doctors = await screen.findByRole('region', { name: 'Your doctors' });
    fireEvent.click(within(doctors).getByRole('button', { name: 'Remove Dr. Dana Lee' }));
    fireEvent.change(screen.getByLabelText('Subscriber, age 41'), { target: { value: 'high' } });
    fireEvent.click(within(doctorsSection()).getByRole('button', { name: 'Remove Dr. Raj Patel' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(names(doctorsSection())).toEqual([]);
    const first = { uses: ['medium', 'medium'], doctors: [PATEL.npi], drugs: [METFORMIN.rxnorm_id] };
    expect(puts(calls)).toEqual([first]);
    await act(async () => answers[0]!());
    // The newest list goes next; the one in between is never sent.
    await waitFor(() => expect(puts(calls)).toEqual([first, { uses: ['high', 'medium'], doctors: [], drugs: [METFORMIN.rxnorm_id] }]));
  });

  it("saves a member's expected use with the doctors and drugs", async () => {
    const calls = fakeServer({ uses: ['medium', 'medium'], doctors: [LEE], drugs: [METFORMIN] });
    renderPanel();
    await screen.findByRole('region', { name: 'Your doctors' });
    fireEvent.change(screen.getByLabelText('Spouse, age 43'), { target: { value: 'low' } });
    await waitFor(() => expect(puts(calls)).toEqual([{ uses: ['medium', 'low'], doctors: [LEE.npi], drugs: [METFORMIN.rxnorm_id] }]));
  });
});
