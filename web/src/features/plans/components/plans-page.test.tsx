import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { i18n } from '@/i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plan, planList, plansView } from '../testing/fixtures';
import type { PlanList } from '../types';
import { COMPARE_LIMIT_WARNING } from '../utils/compare';
import { MORE_ABOUT_PLANS, NO_PLANS, PlansPage, TRY_AGAIN } from './plans-page';
import { NARROW_SCREEN } from '@/lib/media';
import { useFlowStore } from '@/lib/flow';
import { testFlow } from '@/testing/flow';

interface Call {
  method: string;
  url: URL;
  body: unknown;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function pdf(): Response {
  return new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf' } });
}

/** A response the test hands over when it chooses (to look at the page while a print is running). */
function deferred() {
  let resolve: (r: Response) => void = () => {};
  const promise = new Promise<Response>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A fake server: the plan list for any filters (recorded), options, selection, the comparison PDF. */
function fakeServer(
  list: PlanList,
  save: () => Response | Promise<Response> = () => json({ next: { id: 'dental', number: 4, route: '/dental', title: 'Dental Plans' }, application: { applicationId: 'a' } }),
  print: () => Response | Promise<Response> = () => pdf(),
) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://acme.localhost');
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const path = url.pathname;
      if (method === 'PUT' && path === '/api/plans/1') return save();
      if (path.endsWith('/allPlans')) return json(list);
      if (path.endsWith('/carriers')) return json([{ id: 1, name: 'Blue Cross' }, { id: 3, name: 'Priority Health' }]);
      if (path.endsWith('/networks')) return json([{ id: 1, name: 'PPO' }]);
      if (path.endsWith('/metals')) return json([{ id: 4, name: 'Silver' }]);
      if (path.endsWith('/attributes')) return json([{ id: 'hsa', name: 'HSA eligible' }]);
      if (path === '/api/plans/1') return json({ add_hsa: false });
      if (path.startsWith('/api/printPdf/')) return print();
      return json({ error: 'no' }, 404);
    }),
  );
  return calls;
}

function renderPage(extras: Record<string, unknown> = {}) {
  const router = createMemoryRouter(
    [
      { path: '/medical', element: <PlansPage stepId="medical" view={plansView('medical', 1, extras)} /> },
      { path: '/dental', element: <p>dental page</p> },
      { path: '/census', element: <p>census page</p> },
    ],
    { initialEntries: ['/medical'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const lastFilters = (calls: Call[]) =>
  calls.filter((c) => c.url.pathname.endsWith('/allPlans')).at(-1)?.url.searchParams.get('filters') ?? null;


/** How long a test waits for a long list's last slice. */
const EVERY_CARD = { timeout: 15_000 };

describe('PlansPage', () => {
  beforeEach(() => {
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  });
  afterEach(cleanup);

  it('shows the plans and sends the ticked filters as tokens', async () => {
    const calls = fakeServer(planList(3));
    renderPage();
    expect(await screen.findByRole('heading', { level: 2, name: 'Plan 1' })).toBeTruthy();
    expect(screen.getByText('$300.00')).toBeTruthy();
    expect(lastFilters(calls)).toBeNull();

    fireEvent.click(await screen.findByRole('checkbox', { name: 'Priority Health' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'HSA eligible' }));
    await waitFor(() => expect(lastFilters(calls)).toBe('car_3,hsa'));

    fireEvent.change(screen.getByRole('slider', { name: 'Maximum monthly premium' }), { target: { value: '340' } });
    await waitFor(() => expect(lastFilters(calls)).toBe('car_3,hsa,maxPrice:340'));
  });

  it('enables Compare Selected Plans from two plans and stops at six with the warning', async () => {
    fakeServer(planList(8));
    renderPage();
    const compareButton = await screen.findByRole('button', { name: /Compare Selected Plans/ });
    const boxes = () => screen.getAllByRole('checkbox', { name: 'Compare Plan' }) as HTMLInputElement[];
    await waitFor(() => expect(boxes()).toHaveLength(8));
    expect((compareButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(boxes()[0]!);
    fireEvent.click(boxes()[1]!);
    expect((compareButton as HTMLButtonElement).disabled).toBe(false);
    for (const b of boxes().slice(2, 6)) fireEvent.click(b);
    expect(screen.getByText(i18n._(COMPARE_LIMIT_WARNING))).toBeTruthy();
    expect(boxes()[6]!.disabled).toBe(true);
    expect(boxes()[0]!.disabled).toBe(false);

    fireEvent.click(compareButton);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByRole('row')).toHaveLength(7);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Plan 1' }));
    expect(within(dialog).getAllByRole('row')).toHaveLength(6);
    expect(screen.queryByText(i18n._(COMPARE_LIMIT_WARNING))).toBeNull();
  });

  // Every card is drawn a slice a frame: on a busy machine the frames come later, so the wait for
  // the last one is bounded generously (a bound, not a measure).
  it('draws a long list a slice at a time: the first cards at once, every card after, busy until then', async () => {
    fakeServer(planList(40));
    // The page's first drawing of the list, as the DOM had it then (an observer's callback runs
    // before the task that draws the next slice): its first slice only, the rest to come.
    const first: { cards: number; busy: string | null }[] = [];
    const watch = new MutationObserver(() => {
      const cards = document.querySelectorAll('article').length;
      if (cards > 0 && first.length === 0) {
        first.push({ cards, busy: document.querySelector('.ef-plans__list')?.getAttribute('aria-busy') ?? null });
      }
    });
    watch.observe(document.body, { childList: true, subtree: true });
    renderPage();
    expect(await screen.findByRole('heading', { level: 2, name: 'Plan 1' })).toBeTruthy();
    watch.disconnect();
    const list = document.querySelector('.ef-plans__list');
    expect(first[0]?.cards).toBeLessThan(10);
    expect(first[0]?.busy).toBe('true');
    expect(document.querySelector('.ef-plans__count')?.textContent).toBe('40 plans');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(40), EVERY_CARD);
    expect(list?.getAttribute('aria-busy')).toBe('false');
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading', { level: 2 }).textContent)).toEqual(
      Array.from({ length: 40 }, (_, i) => `Plan ${i + 1}`),
    );
  });

  it('draws the list of other filters a slice at a time too, but keeps every card while a card is used', async () => {
    const calls = fakeServer(planList(40));
    renderPage();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(40), EVERY_CARD);
    // Ticking a card's compare box changes no list: every card stays, the box ticked.
    const box = within(screen.getByRole('article', { name: 'Plan 30' })).getByRole('checkbox', { name: 'Compare Plan' });
    fireEvent.click(box);
    expect(screen.getAllByRole('article')).toHaveLength(40);
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(box.isConnected).toBe(true);
    // A filter brings a new list: its first slice at once, then the rest.
    fireEvent.click(await screen.findByRole('checkbox', { name: 'HSA eligible' }));
    await waitFor(() => expect(lastFilters(calls)).toBe('hsa'));
    await waitFor(() => expect(screen.getAllByRole('article').length).toBeLessThan(10));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(40), EVERY_CARD);
  });

  it('saves a selection and goes where the server says', async () => {
    const calls = fakeServer(planList(2));
    const router = renderPage();
    const card = await screen.findByRole('article', { name: 'Plan 2' });
    fireEvent.click(within(card).getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ selected_plan_id: 521 });
  });

  it('saves the HSA choice ticked on a card with its selection', async () => {
    const list = planList(2);
    list.plans[1] = { ...list.plans[1]!, is_hsa: true };
    const calls = fakeServer(list);
    renderPage();
    const card = await screen.findByRole('article', { name: 'Plan 2' });
    const hsa = within(card).getByRole('checkbox', { name: 'Add a Health Savings Account (HSA)' }) as HTMLInputElement;
    expect(hsa.checked).toBe(false);
    expect(within(screen.getByRole('article', { name: 'Plan 1' })).queryByRole('checkbox', { name: /HSA/ })).toBeNull();
    fireEvent.click(hsa);
    expect(hsa.checked).toBe(true);
    fireEvent.click(within(card).getByRole('button', { name: 'Select' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ selected_plan_id: 521, add_hsa: true }));
  });

  it("draws each member's premium when the person opens the breakdown", async () => {
    const members = [
      { member: 'Subscriber', age: 40, amount: 267.19, rate: 267.19, charged: true },
      { member: 'Dependent 4', age: 13, amount: 0, rate: 159.94, charged: false },
    ];
    fakeServer(planList(1, { plans: [plan({ id: 520, name: 'Plan 1', rates: { total: 267.19, members } })] }));
    renderPage();
    const card = await screen.findByRole('article', { name: 'Plan 1' });
    const details = card.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(card).queryAllByRole('row')).toHaveLength(0);
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const rows = await within(card).findAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['MemberAgeMonthly', 'Subscriber40$267.19', 'Dependent 413Not charged']);
  });

  it('shows Selected and Continue for the chosen plan', async () => {
    const list = planList(2, { selected_plan_id: 520 });
    fakeServer(list);
    renderPage();
    const card = await screen.findByRole('article', { name: 'Plan 1' });
    expect((within(card).getByRole('button', { name: 'Selected' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(card).getByRole('button', { name: 'Continue' })).toBeTruthy();
  });

  it('stays and shows the alert when saving fails', async () => {
    fakeServer(planList(1), () => json({ error: 'Something went wrong!' }, 500));
    const router = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Select' }));
    expect((await screen.findByRole('alert')).textContent).toContain(TRY_AGAIN.id);
    expect(router.state.location.pathname).toBe('/medical');
    expect(window.scrollTo).toHaveBeenCalled();
  });

  it('offers Continue without … Coverage only when the view allows it', async () => {
    const calls = fakeServer(planList(1));
    const router = renderPage({ can_continue_without: true });
    await screen.findByRole('article', { name: 'Plan 1' });
    const buttons = await screen.findAllByRole('button', { name: 'Continue without Medical Coverage' });
    expect(buttons).toHaveLength(2);
    fireEvent.click(buttons[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ selected_plan_id: null });
  });

  it('asks nothing more of the page while a selection is saved (the step may close behind it)', async () => {
    const later = () =>
      new Promise<Response>((resolve) =>
        setTimeout(
          () => resolve(json({ next: { id: 'vision', number: 5, route: '/dental', title: '' }, application: {} })),
          500,
        ),
      );
    const calls = fakeServer(planList(1), later);
    const router = renderPage({ can_continue_without: true });
    await screen.findByRole('article', { name: 'Plan 1' });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Priority Health' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Continue without Medical Coverage' })[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'));
    expect(calls.filter((c) => c.url.pathname.endsWith('/allPlans')).map((c) => c.url.searchParams.get('filters'))).toEqual([
      null,
    ]);
  });

  it('has no Continue without … when the view says no, and goes Previous per the view', async () => {
    fakeServer(planList(1));
    const router = renderPage({ can_continue_without: false });
    await screen.findByRole('article', { name: 'Plan 1' });
    expect(screen.queryByRole('button', { name: /Continue without/ })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Previous' })));
    expect(router.state.location.pathname).toBe('/census');
  });

  describe('on a phone (narrower than 768 px)', () => {
    beforeEach(() => {
      vi.stubGlobal(
        'matchMedia',
        vi.fn((query: string) => ({ matches: query === NARROW_SCREEN, media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
      );
    });
    afterEach(() => vi.unstubAllGlobals());

    it('puts the plans first: one note, the others behind More about these plans, the filters behind a button', async () => {
      fakeServer(planList(3));
      renderPage();
      expect(await screen.findByRole('article', { name: 'Plan 1' })).toBeTruthy();
      const more = screen.getByText(MORE_ABOUT_PLANS.id).closest('details')!;
      expect(more.open).toBe(false);
      expect(within(more).getByText('Child-only policies are available on all plans.')).toBeTruthy();
      // No filter checkbox on the page, and no compare bar before a plan is ticked.
      expect(screen.queryByRole('checkbox', { name: 'Priority Health' })).toBeNull();
      expect(screen.queryByText('0 of 6 plans chosen to compare')).toBeNull();
      // The print buttons follow the plans.
      const article = screen.getByRole('article', { name: 'Plan 1' });
      const print = screen.getByRole('button', { name: 'Print Medical Comparison' });
      expect(article.compareDocumentPosition(print) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });

    it('filters through the sheet: nothing changes until Apply, the button counts the filters on, Clear empties the sheet', async () => {
      const calls = fakeServer(planList(3));
      renderPage();
      await screen.findByRole('article', { name: 'Plan 1' });
      fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
      const sheet = await screen.findByRole('dialog', { name: 'Filters' });
      fireEvent.click(await within(sheet).findByRole('checkbox', { name: 'Priority Health' }));
      fireEvent.click(within(sheet).getByRole('checkbox', { name: 'HSA eligible' }));
      expect(lastFilters(calls)).toBeNull();
      fireEvent.click(within(sheet).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(lastFilters(calls)).toBe('car_3,hsa'));
      expect(screen.queryByRole('dialog', { name: 'Filters' })).toBeNull();

      fireEvent.click(screen.getByRole('button', { name: 'Filters (2 on)' }));
      const again = await screen.findByRole('dialog', { name: 'Filters' });
      expect((within(again).getByRole('checkbox', { name: 'Priority Health' }) as HTMLInputElement).checked).toBe(true);
      fireEvent.click(within(again).getByRole('button', { name: 'Clear' }));
      expect((within(again).getByRole('checkbox', { name: 'Priority Health' }) as HTMLInputElement).checked).toBe(false);
      expect(lastFilters(calls)).toBe('car_3,hsa');
      fireEvent.click(within(again).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(lastFilters(calls)).toBeNull());
      expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
    });

    it('shows the compare bar once a plan is ticked', async () => {
      fakeServer(planList(3));
      renderPage();
      await screen.findByRole('article', { name: 'Plan 1' });
      fireEvent.click(screen.getAllByRole('checkbox', { name: /compare/i })[0]!);
      expect(await screen.findByText('1 of 6 plans chosen to compare')).toBeTruthy();
    });

    it('compares plans as cards, the monthly premium first in each, nothing wider than the screen', async () => {
      fakeServer(planList(3));
      renderPage();
      await screen.findByRole('article', { name: 'Plan 1' });
      const boxes = screen.getAllByRole('checkbox', { name: /compare/i });
      fireEvent.click(boxes[0]!);
      fireEvent.click(boxes[1]!);
      fireEvent.click(await screen.findByRole('button', { name: 'Compare Selected Plans (2)' }));
      const dialog = await screen.findByRole('dialog', { name: 'Compare Medical Plans' });
      expect(within(dialog).queryByRole('table')).toBeNull();
      const cards = within(dialog).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      const first = cards[0]!.querySelector('dt');
      expect(first?.textContent).toBe('Monthly premium');
      expect(first?.nextElementSibling?.textContent).toBe('$300.00');
      expect(within(cards[0]!).getByRole('button', { name: 'Remove Plan 1' })).toBeTruthy();
    });
  });

  it('asks for the list and its filters beside the step view, not after it', async () => {
    useFlowStore.setState({ flow: testFlow({ lastStep: 3 }) });
    const calls = fakeServer(planList(2));
    let viewAsked = false;
    let listBeforeView = false;
    const served = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const path = new URL(input, 'http://acme.localhost').pathname;
        if (path === '/api/application/step/medical') {
          viewAsked = true;
          // The view answers only once the list was asked for: a page that waited for it would hang.
          await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/allPlans'))).toBe(true));
          listBeforeView = true;
          return json(plansView('medical', 1));
        }
        return served(input, init);
      }),
    );
    const router = createMemoryRouter([{ path: '/medical', element: <PlansPage stepId="medical" /> }], { initialEntries: ['/medical'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('article', { name: 'Plan 1' })).toBeTruthy();
    expect(viewAsked && listBeforeView).toBe(true);
    // One request for the list: the page took the early answer.
    expect(calls.filter((c) => c.url.pathname.endsWith('/allPlans'))).toHaveLength(1);
    useFlowStore.setState({ flow: null });
  });

  it("draws each card's footer links: the benefits summary, the plan details and the carrier's drug list", async () => {
    const list = planList(2);
    list.plans[0] = { ...list.plans[0]!, drug_list: 'https://example.com/drugs.pdf' };
    fakeServer(list);
    renderPage();
    const card = await screen.findByRole('article', { name: 'Plan 1' });
    const links = within(card)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['Summary of Benefits (opens in a new tab)', 'https://example.com/sbc.pdf'],
        ['Plan Details (opens in a new tab)', 'https://example.com/plan'],
        ['Drug List (opens in a new tab)', 'https://example.com/drugs.pdf'],
      ]),
    );
    // A plan without a drug list has no such link.
    const other = screen.getByRole('article', { name: 'Plan 2' });
    expect(within(other).queryByRole('link', { name: /^Drug List/ })).toBeNull();
  });

  it('says "Please choose plans to compare" once every plan is removed from the comparison', async () => {
    fakeServer(planList(3));
    renderPage();
    await screen.findByRole('article', { name: 'Plan 1' });
    const boxes = () => screen.getAllByRole('checkbox', { name: 'Compare Plan' });
    fireEvent.click(boxes()[0]!);
    fireEvent.click(boxes()[1]!);
    fireEvent.click(screen.getByRole('button', { name: /Compare Selected Plans/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Plan 1' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Plan 2' }));
    expect(within(dialog).getByText('Please choose plans to compare')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Print this comparison' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the server's message when the plan list or the filters cannot be loaded", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const path = new URL(input, 'http://acme.localhost').pathname;
        if (path.endsWith('/allPlans')) return json({ error: 'The plans could not be loaded.' }, 500);
        if (path === '/api/plans/1') return json({ add_hsa: false });
        return json({ error: 'The carriers could not be listed.' }, 500);
      }),
    );
    renderPage();
    const alerts = await screen.findAllByRole('alert');
    await waitFor(() => expect(screen.getByText('The plans could not be loaded.')).toBeTruthy());
    expect(alerts.length).toBeGreaterThan(0);
    expect(await screen.findByText('The filters could not be loaded')).toBeTruthy();
  });

  it('says so when there are no plans at all', async () => {
    fakeServer({ plans: [], price_range: null, household_size: 1, selected_plan_id: null });
    renderPage();
    expect(await screen.findByText(NO_PLANS.id)).toBeTruthy();
    expect(screen.queryByRole('slider')).toBeNull();
  });

  describe('print buttons (disabled while printing; the browser downloads compare.pdf)', () => {
    let downloads: string[];

    beforeEach(() => {
      downloads = [];
      URL.createObjectURL = vi.fn(() => 'blob:compare') as unknown as typeof URL.createObjectURL;
      URL.revokeObjectURL = vi.fn() as unknown as typeof URL.revokeObjectURL;
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(this: HTMLAnchorElement) {
        downloads.push(this.download);
      });
    });

    const printUrls = (calls: Call[]) => calls.filter((c) => c.url.pathname.startsWith('/api/printPdf/')).map((c) => c.url.pathname);
    const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
    const pageButtons = () => [button('Print Medical Comparison'), button('Print Medical, Dental and Vision Comparison')];

    it("disables the page's print buttons while a print runs and enables them after", async () => {
      const pending = deferred();
      let prints = 0;
      const calls = fakeServer(planList(2), undefined, () => (prints++ === 0 ? pending.promise : pdf()));
      renderPage();
      await screen.findByRole('article', { name: 'Plan 1' });
      expect(pageButtons().map((b) => b.disabled)).toEqual([false, false]);

      fireEvent.click(button('Print Medical, Dental and Vision Comparison'));
      await waitFor(() => expect(printUrls(calls)).toEqual(['/api/printPdf/1/true']));
      expect(pageButtons().map((b) => b.disabled)).toEqual([true, true]);
      fireEvent.click(button('Print Medical Comparison'));
      expect(printUrls(calls)).toHaveLength(1);

      await act(async () => pending.resolve(pdf()));
      await waitFor(() => expect(pageButtons().map((b) => b.disabled)).toEqual([false, false]));
      expect(downloads).toEqual(['compare.pdf']);

      fireEvent.click(button('Print Medical Comparison'));
      await waitFor(() => expect(printUrls(calls)).toEqual(['/api/printPdf/1/true', '/api/printPdf/1/false']));
      await waitFor(() => expect(downloads).toEqual(['compare.pdf', 'compare.pdf']));
    });

    it('enables them again after a failed print, with the alert', async () => {
      const pending = deferred();
      fakeServer(planList(1), undefined, () => pending.promise);
      renderPage();
      await screen.findByRole('article', { name: 'Plan 1' });
      fireEvent.click(button('Print Medical Comparison'));
      await waitFor(() => expect(pageButtons().every((b) => b.disabled)).toBe(true));
      await act(async () => pending.resolve(json({ error: 'no' }, 500)));
      await waitFor(() => expect(pageButtons().map((b) => b.disabled)).toEqual([false, false]));
      expect((await screen.findByRole('alert')).textContent).toContain(TRY_AGAIN.id);
      expect(downloads).toEqual([]);
    });

    it("disables the compare dialog's print button while printing (Printing…) and enables it after", async () => {
      const pending = deferred();
      const calls = fakeServer(planList(3), undefined, () => pending.promise);
      renderPage();
      await screen.findByRole('article', { name: 'Plan 3' });
      const boxes = screen.getAllByRole('checkbox', { name: 'Compare Plan' });
      fireEvent.click(boxes[2]!);
      fireEvent.click(boxes[0]!);
      fireEvent.click(screen.getByRole('button', { name: /Compare Selected Plans/ }));
      const dialog = await screen.findByRole('dialog');
      const print = within(dialog).getByRole('button', { name: 'Print this comparison' }) as HTMLButtonElement;
      expect(print.disabled).toBe(false);

      fireEvent.click(print);
      await waitFor(() => expect(print.disabled).toBe(true));
      expect(print.textContent).toBe('Printing…');
      expect(printUrls(calls)).toEqual([`/api/printPdf/1/false/${encodeURIComponent('plan_520,plan_522')}`]);
      fireEvent.click(print);
      expect(printUrls(calls)).toHaveLength(1);

      await act(async () => pending.resolve(pdf()));
      await waitFor(() => expect(print.disabled).toBe(false));
      expect(print.textContent).toBe('Print this comparison');
      expect(downloads).toEqual(['compare.pdf']);
    });
  });
});
