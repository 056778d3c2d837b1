import type { Period, Product, SortCol, StartedBy } from '../types';

export const RESULTS_PER_PAGE = 12;
export const PERIODS: { value: Period; label: string }[] = [
  { value: 60, label: 'Last 60 days' },
  { value: 180, label: 'Last 180 days' },
  { value: 365, label: 'Last 12 months' },
];
export const PRODUCTS: Product[] = ['medical', 'dental', 'vision'];
export const STARTED_BY: { value: StartedBy; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'agent', label: 'Agent' },
  { value: 'consumer', label: 'Consumer' },
];

export interface ListQuery {
  page: number;
  sortCol: SortCol;
  sortOrderAsc: boolean;
  daysToShow: Period;
  searchName: string;
  products: Product[];
  /** `filterSubdomain`: one of the agent's sites; '' (or absent) for all. */
  subdomain?: string;
  /** `filterStartedBy` (Quoting only); '' (or absent) for all. */
  startedBy?: StartedBy;
}

/** The query string of a list or export call (`filterProduct` repeats; an empty search is left out). */
export function buildQuery(q: ListQuery, withPage = true): string {
  const params = new URLSearchParams();
  if (withPage) {
    params.set('page', String(q.page));
    params.set('resultsPerPage', String(RESULTS_PER_PAGE));
  }
  params.set('sortCol', q.sortCol);
  params.set('sortOrderAsc', String(q.sortOrderAsc));
  params.set('daysToShow', String(q.daysToShow));
  const search = q.searchName.trim();
  if (search) params.set('searchName', search);
  for (const p of PRODUCTS) if (q.products.includes(p)) params.append('filterProduct', p);
  if (q.subdomain) params.set('filterSubdomain', q.subdomain);
  if (q.startedBy) params.set('filterStartedBy', q.startedBy);
  return params.toString();
}
