import type { ListKind, Period, Product, SortCol, StartedBy } from '../types';
import { PERIODS, PRODUCTS, type ListQuery } from './query';
import { SORT_COLUMNS as SORTS, defaultAsc, initialSort } from './sort';

// The view of an agent's list lives in the page's address (issue "The spec, to the letter", item 1):
// Back, a reload and a shared link return to the same page, period, search, filters and sort.
//
//   /dashboard/quoting?page=3&days=180&q=lee&product=medical&product=dental&site=acmeins&startedBy=agent&sort=created_at&dir=desc
//
// Defaults are left out, so the plain address is the default view.

const STARTED: StartedBy[] = ['', 'agent', 'consumer'];

/** The list's query as the address says (anything unknown or malformed falls back to the default). */
export function queryFromParams(kind: ListKind, params: URLSearchParams): ListQuery {
  const sort = initialSort(kind);
  const page = Number(params.get('page'));
  const days = Number(params.get('days'));
  const col = params.get('sort') as SortCol | null;
  const known = col !== null && SORTS[kind].includes(col);
  const dir = params.get('dir');
  const products = params.getAll('product').filter((p): p is Product => (PRODUCTS as string[]).includes(p));
  const startedBy = params.get('startedBy') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    daysToShow: PERIODS.some((p) => p.value === days) ? (days as Period) : 60,
    searchName: params.get('q') ?? '',
    products: PRODUCTS.filter((p) => products.includes(p)),
    subdomain: params.get('site') ?? '',
    sortCol: known && col ? col : sort.col,
    sortOrderAsc: dir === 'asc' ? true : dir === 'desc' ? false : known && col ? defaultAsc(col) : sort.asc,
    ...(kind === 'quotes' ? { startedBy: (STARTED as string[]).includes(startedBy) ? (startedBy as StartedBy) : '' } : {}),
  };
}

/** The address's query for a list query: only what differs from the default view. */
export function paramsFromQuery(kind: ListKind, q: ListQuery): URLSearchParams {
  const sort = initialSort(kind);
  const out = new URLSearchParams();
  if (q.page > 1) out.set('page', String(q.page));
  if (q.daysToShow !== 60) out.set('days', String(q.daysToShow));
  const search = q.searchName.trim();
  if (search) out.set('q', search);
  for (const p of PRODUCTS) if (q.products.includes(p)) out.append('product', p);
  if (q.subdomain) out.set('site', q.subdomain);
  if (kind === 'quotes' && q.startedBy) out.set('startedBy', q.startedBy);
  if (q.sortCol !== sort.col || q.sortOrderAsc !== sort.asc) {
    out.set('sort', q.sortCol);
    out.set('dir', q.sortOrderAsc ? 'asc' : 'desc');
  }
  return out;
}
