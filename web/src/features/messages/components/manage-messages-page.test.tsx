import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { AdminMessage } from '../types';
import { LOAD_ERROR, ManageMessagesPage, SAVE_ERROR, SAVED, SAVED_TOAST_MS } from './manage-messages-page';

const agents = [
  { id: 'a1', npn: '111', first_name: 'Maria', last_name: 'Alvarez', email: 'maria@example.com' },
  { id: 'a2', npn: '222', first_name: 'Daniel', last_name: 'Okafor', email: 'dan@example.com' },
];
const existing: AdminMessage = {
  id: 'm1',
  title: 'Existing',
  content: '<p>Hello</p>',
  is_sticky: true,
  publish_date: '2024-11-01',
  expiration_date: '2024-12-31',
  code: 'C1',
  created_at_formatted: '11/01/2024',
  dismissed: false,
  agents: ['a2'],
};

type Answer = { status: number; body?: unknown };
const answers = new Map<string, Answer>();
const sent: { method: string; url: string; body: unknown }[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  sent.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const a = answers.get(`${method} ${url}`) ?? { status: 404, body: { error: 'No such API call.' } };
  return a.status === 204 ? new Response(null, { status: 204 }) : new Response(JSON.stringify(a.body ?? {}), { status: a.status });
});

beforeEach(() => {
  answers.clear();
  sent.length = 0;
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('scrollTo', vi.fn());
  configureApiClient({ csrfToken: () => 'admin-tok', redirectToRoot: () => {} });
  answers.set('GET /api/admin/agentList', { status: 200, body: agents });
  answers.set('GET /api/admin/messageList', { status: 200, body: { messages: [existing] } });
});

afterEach(() => {
  cleanup();
  resetApiClient();
  vi.useRealTimers();
});

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save message' }) as HTMLButtonElement;
const deleteButton = () => screen.getByRole('button', { name: 'Delete message' }) as HTMLButtonElement;

describe('ManageMessagesPage', () => {
  it('lists messages; Save is disabled while every field is empty, Delete without an id', async () => {
    render(<ManageMessagesPage />);
    expect(await screen.findByText('Created 11/01/2024')).toBeTruthy();
    expect(await screen.findByText('maria@example.com')).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    expect(deleteButton().disabled).toBe(true);
    fireEvent.change(field(/^Title/), { target: { value: '   ' } });
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(field(/^Message Code/), { target: { value: 'X' } });
    expect(saveButton().disabled).toBe(false);
    expect((field(/^Content/) as unknown as HTMLTextAreaElement).rows).toBe(10);
    expect(field(/^Publish Date/).type).toBe('date');
  });

  it('Select All and Deselect All tick every agent', async () => {
    render(<ManageMessagesPage />);
    await screen.findByText('maria@example.com');
    const boxes = () => screen.getAllByRole('checkbox', { name: /^Send to/ }) as HTMLInputElement[];
    fireEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(boxes().map((b) => b.checked)).toEqual([true, true]);
    fireEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(boxes().map((b) => b.checked)).toEqual([false, false]);
    fireEvent.click(screen.getByRole('checkbox', { name: /Daniel Okafor/ }));
    expect(boxes().map((b) => b.checked)).toEqual([false, true]);
    expect(saveButton().disabled).toBe(false);
  });

  it('saves a new message trimmed, shows the toast for 3 seconds and resets the form', async () => {
    const saved = { ...existing, id: 'm2', title: 'New one', agents: ['a1'] };
    answers.set('PUT /api/admin/manageMessage', { status: 200, body: { message: saved } });
    render(<ManageMessagesPage />);
    await screen.findByText('maria@example.com');
    fireEvent.change(field(/^Title/), { target: { value: '  New one  ' } });
    fireEvent.change(field(/^Publish Date/), { target: { value: '2024-11-20' } });
    fireEvent.change(field(/^Content/), { target: { value: '  <p>Hi</p> ' } });
    fireEvent.click(screen.getByLabelText('Prevent agent from dismissing this message'));
    fireEvent.click(screen.getByRole('checkbox', { name: /Maria Alvarez/ }));
    answers.set('GET /api/admin/messageList', { status: 200, body: { messages: [saved, existing] } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(saveButton());
    expect(await screen.findByText(SAVED)).toBeTruthy();
    const put = sent.find((s) => s.method === 'PUT');
    expect(put?.body).toEqual({
      title: 'New one',
      publish_date: '2024-11-20',
      expiration_date: null,
      code: null,
      content: '<p>Hi</p>',
      is_sticky: true,
      agents: ['a1'],
    });
    expect(await screen.findByText('New one')).toBeTruthy(); // the list reloaded
    expect(field(/^Title/).value).toBe('');
    expect(saveButton().disabled).toBe(true);
    await act(async () => {
      vi.advanceTimersByTime(SAVED_TOAST_MS + 10);
    });
    expect(screen.queryByText(SAVED)).toBeNull();
  });

  it('selecting a message copies it into the form; saving keeps it selected; Delete resets', async () => {
    answers.set('PUT /api/admin/manageMessage', { status: 200, body: { message: { ...existing, title: 'Existing 2' } } });
    answers.set('POST /api/admin/manageMessage/m1', { status: 204 });
    render(<ManageMessagesPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Existing/ }));
    await screen.findByText('maria@example.com');
    expect(field(/^Title/).value).toBe('Existing');
    expect(field(/^Expiration Date/).value).toBe('2024-12-31');
    expect((screen.getByLabelText('Prevent agent from dismissing this message') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /Daniel Okafor/ }) as HTMLInputElement).checked).toBe(true);
    expect(deleteButton().disabled).toBe(false);
    fireEvent.change(field(/^Title/), { target: { value: 'Existing 2' } });
    fireEvent.click(saveButton());
    await screen.findByText(SAVED);
    expect((sent.find((s) => s.method === 'PUT')?.body as { id?: string }).id).toBe('m1');
    expect(field(/^Title/).value).toBe('Existing 2');
    // Asked first: Keep it deletes nothing; Delete message in the dialog does.
    fireEvent.click(deleteButton());
    const ask = await screen.findByRole('dialog', { name: 'Delete this message?' });
    expect(ask.textContent).toContain('“Existing 2” is removed for every agent');
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    fireEvent.click(deleteButton());
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this message?' })).getByRole('button', { name: 'Delete message' }));
    await waitFor(() => expect(field(/^Title/).value).toBe(''));
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/admin/manageMessage/m1')).toBe(true);
  });

  it('shows the server errors under their fields, else "Sorry, something went wrong"', async () => {
    answers.set('PUT /api/admin/manageMessage', {
      status: 422,
      body: { error: 'Invalid', errors: { title: ['The title is required.'], agents: ['Choose at least one agent.'] } },
    });
    render(<ManageMessagesPage />);
    await screen.findByText('maria@example.com');
    fireEvent.change(field(/^Message Code/), { target: { value: 'X' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('The title is required.')).toBeTruthy();
    expect(screen.getByText('Choose at least one agent.')).toBeTruthy();
    expect(field(/^Title/).getAttribute('aria-invalid')).toBe('true');
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
    expect(screen.queryByText(SAVE_ERROR)).toBeNull();

    answers.set('PUT /api/admin/manageMessage', { status: 500, body: { error: 'Something went wrong!' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText(SAVE_ERROR)).toBeTruthy();
    expect(screen.queryByText('The title is required.')).toBeNull();
  });

  it('says so when the lists cannot be loaded', async () => {
    answers.set('GET /api/admin/messageList', { status: 500, body: { error: 'x' } });
    render(<ManageMessagesPage />);
    const alert = await screen.findByText(LOAD_ERROR);
    expect(within(alert.closest('.ds-c-alert') as HTMLElement).getByText(LOAD_ERROR)).toBeTruthy();
  });
});
