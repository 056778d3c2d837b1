import { cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isProviderQuery } from '../utils/care-edits';
import { NO_MATCHES, SEARCH_FAILED, Typeahead } from './typeahead';

interface Hit {
  id: string;
  name: string;
}

const HITS: Hit[] = ['Ana Smith', 'Ben Smith', 'Cal Smithers', 'Dee Smithson', 'Eve Smythe'].map((name, i) => ({ id: String(i + 1), name }));

function setup(search: (q: string, signal: AbortSignal) => Promise<readonly Hit[]>, searchable?: (q: string) => boolean) {
  const picked: Hit[] = [];
  const spy = vi.fn(search);
  render(
    <Typeahead<Hit>
      label="Add a doctor"
      hint="Type a name"
      search={spy}
      searchable={searchable}
      hitKey={(h) => h.id}
      render={(h) => h.name}
      onPick={(h) => picked.push(h)}
    />,
  );
  const input = screen.getByRole('combobox', { name: 'Add a doctor' }) as HTMLInputElement;
  return { input, picked, search: spy };
}

const status = () => screen.getByRole('status');
const key = (el: Element, k: string, init: object = {}) => fireEvent.keyDown(el, { key: k, ...init });

describe('Typeahead', () => {
  afterEach(cleanup);

  it('is a combobox with a listbox popup, its hint and a polite live region', () => {
    const { input } = setup(async () => HITS);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    expect(input.getAttribute('autocomplete')).toBe('off');
    const list = document.getElementById(input.getAttribute('aria-controls')!);
    expect(list?.getAttribute('role')).toBe('listbox');
    expect(list?.hidden).toBe(true);
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('Type a name');
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);
    expect(status().getAttribute('aria-live')).toBe('polite');
    expect(status().textContent).toBe('');
  });

  it('searches once typing pauses, lists the hits and says how many', async () => {
    const { input, search } = setup(async () => HITS);
    fireEvent.change(input, { target: { value: 's' } });
    fireEvent.change(input, { target: { value: 'sm' } });
    fireEvent.change(input, { target: { value: 'smi' } });
    expect(search).not.toHaveBeenCalled();
    const list = await screen.findByRole('listbox', { name: 'Add a doctor' });
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0]![0]).toBe('smi');
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(HITS.map((h) => h.name));
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(status().textContent).toBe('5 results');
    // The count is for screen readers only: the list shows it.
    expect(status().className).toContain('ds-u-visibility--screen-reader');
  });

  it('moves through the hits with the arrow keys and picks the active one with Enter', async () => {
    const { input, picked } = setup(async () => HITS);
    fireEvent.change(input, { target: { value: 'smith' } });
    await screen.findByRole('listbox');
    const options = () => screen.getAllByRole('option');
    const active = () => input.getAttribute('aria-activedescendant');

    key(input, 'ArrowDown');
    expect(active()).toBe(options()[0]!.id);
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    expect(options()[1]!.getAttribute('aria-selected')).toBe('false');
    key(input, 'ArrowDown');
    key(input, 'ArrowDown');
    expect(active()).toBe(options()[2]!.id);
    key(input, 'ArrowUp');
    expect(active()).toBe(options()[1]!.id);
    // Up from the first goes round to the last, Down from the last to the first.
    key(input, 'ArrowUp');
    key(input, 'ArrowUp');
    expect(active()).toBe(options()[4]!.id);
    key(input, 'ArrowDown');
    expect(active()).toBe(options()[0]!.id);
    key(input, 'ArrowDown');

    key(input, 'Enter');
    expect(picked).toEqual([HITS[1]]);
    expect(input.value).toBe('');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('Enter picks nothing while no hit is active', async () => {
    const { input, picked } = setup(async () => HITS);
    fireEvent.change(input, { target: { value: 'smith' } });
    await screen.findByRole('listbox');
    key(input, 'Enter');
    expect(picked).toEqual([]);
    expect(input.value).toBe('smith');
  });

  it('Escape closes the list, then empties the field; Down opens the list again', async () => {
    const { input } = setup(async () => HITS);
    fireEvent.change(input, { target: { value: 'smith' } });
    await screen.findByRole('listbox');
    key(input, 'ArrowDown');
    key(input, 'Escape');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);
    expect(input.value).toBe('smith');
    key(input, 'ArrowDown');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[0]!.id);
    key(input, 'Escape');
    key(input, 'Escape');
    expect(input.value).toBe('');
  });

  it('picks a hit clicked or tapped, keeping the focus in the field', async () => {
    const { input, picked } = setup(async () => HITS);
    input.focus();
    fireEvent.change(input, { target: { value: 'smith' } });
    const option = (await screen.findAllByRole('option'))[3]!;
    // The press itself does not take the focus from the field.
    expect(fireEvent.mouseDown(option)).toBe(false);
    fireEvent.click(option);
    expect(picked).toEqual([HITS[3]]);
    expect(document.activeElement).toBe(input);
  });

  it('aborts the search still running when the text changes, and shows only the latest answer', async () => {
    const signals: AbortSignal[] = [];
    const answers: ((hits: Hit[]) => void)[] = [];
    const { input } = setup(
      (_q, signal) =>
        new Promise<Hit[]>((resolve) => {
          signals.push(signal);
          answers.push(resolve);
        }),
    );
    fireEvent.change(input, { target: { value: 'sm' } });
    await waitFor(() => expect(signals).toHaveLength(1));
    fireEvent.change(input, { target: { value: 'smy' } });
    expect(signals[0]!.aborted).toBe(true);
    await waitFor(() => expect(signals).toHaveLength(2));
    expect(signals[1]!.aborted).toBe(false);
    answers[0]!(HITS);
    answers[1]!([HITS[4]!]);
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Eve Smythe']));
    expect(status().textContent).toBe('1 result');
  });

  it('says "No matches" to everyone when nothing is found', async () => {
    const { input } = setup(async () => []);
    fireEvent.change(input, { target: { value: 'zz' } });
    await waitFor(() => expect(status().textContent).toBe(NO_MATCHES.id));
    expect(status().className).not.toContain('screen-reader');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('says the search failed, and searches again as typing goes on', async () => {
    let fail = true;
    const { input } = setup(async () => {
      if (fail) throw new Error('down');
      return HITS.slice(0, 2);
    });
    fireEvent.change(input, { target: { value: 'sm' } });
    await waitFor(() => expect(status().textContent).toBe(SEARCH_FAILED.id));
    expect(status().className).toContain('ef-typeahead__message--error');
    fail = false;
    fireEvent.change(input, { target: { value: 'smi' } });
    await waitFor(() => expect(status().textContent).toBe('2 results'));
  });

  it('asks nothing for text too short, and for a provider only a name or a whole NPI', async () => {
    const { input, search } = setup(async () => HITS, isProviderQuery);
    for (const text of ['s', ' a ', '12345', '123456789']) fireEvent.change(input, { target: { value: text } });
    await new Promise((r) => setTimeout(r, 250));
    expect(search).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '1234567893' } });
    await waitFor(() => expect(search).toHaveBeenCalledTimes(1));
    expect(search.mock.calls[0]![0]).toBe('1234567893');
  });
});
