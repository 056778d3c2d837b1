import { Alert, Badge, Button, Choice, Spinner, TextField } from '@cmsgov/design-system';
import { useEffect, useId, useState } from 'react';
import { GENERIC_ERROR } from '@/lib/api-client';
import { enroll } from '../api/enroll';
import { EXPORT_FILE_NAMES, exportList } from '../api/export-list';
import { getList } from '../api/get-list';
import { useShellStore } from '../stores/shell-store';
import type { DashboardListPage, DashboardRow, ListKind, Period, Product, SortCol, StartedBy } from '../types';
import { formatDate, rowName } from '../utils/format';
import { mailtoHref } from '../utils/mailto';
import { pageItems } from '../utils/pagination';
import { PERIODS, PRODUCTS, STARTED_BY, type ListQuery } from '../utils/query';
import { initialSort, toggleSort, type SortState } from '../utils/sort';
import { AppInfoModal } from './app-info-modal';
import { useDashboardActions } from './dashboard-actions';
import { ProductBadges } from './product-badges';
import { RowMenu, type RowMenuItem } from './row-menu';
import { DASHBOARD_ERROR } from './texts';

const TITLES: Record<ListKind, string> = { quotes: 'Quoting', enrollees: 'Submissions' };
const PRODUCT_LABELS: Record<Product, string> = { medical: 'Medical', dental: 'Dental', vision: 'Vision' };

interface Column {
  label: string;
  sort?: SortCol;
  cell: (row: DashboardRow) => React.ReactNode;
}

/** Quoting's Started By: the agent's user who started it, or Consumer. */
function startedBy(row: DashboardRow): string {
  if (row.agent_started === false) return 'Consumer';
  if (row.agent_started) return row.started_by || 'Agent';
  return row.started_by || 'Consumer';
}

/** The row menu's entries: More Info, Send Email (with an address), View Medical SBC (with a link). */
export function rowMenuItems(row: DashboardRow, kind: ListKind, agentFullName: string, onMoreInfo: () => void): RowMenuItem[] {
  const items: RowMenuItem[] = [{ kind: 'button', label: 'More Info', onSelect: onMoreInfo }];
  if (row.sub_email) items.push({ kind: 'link', label: 'Send Email', href: mailtoHref(row, agentFullName, kind) });
  if (row.sbc_url) items.push({ kind: 'link', label: 'View Medical SBC', href: row.sbc_url, newTab: true });
  return items;
}

function columns(kind: ListKind): Column[] {
  const name: Column = { label: 'Subscriber Name', sort: 'last_name', cell: rowName };
  const email: Column = { label: 'E-mail', cell: (r) => r.sub_email };
  const effective: Column = { label: 'Effective Date', sort: 'effective_date', cell: (r) => formatDate(r.effective_date) };
  const period: Column = { label: 'OEP/SEP', cell: (r) => r.period_badge };
  const count: Column = { label: 'Contract Count', cell: (r) => r.contract_count };
  const products: Column = { label: 'Products', cell: (r) => <ProductBadges row={r} /> };
  if (kind === 'quotes') {
    return [
      name,
      email,
      { label: 'Started By', cell: startedBy },
      { label: 'Created Date', sort: 'created_at', cell: (r) => formatDate(r.created_at) },
      effective,
      period,
      count,
      products,
    ];
  }
  return [
    name,
    email,
    { label: 'Submit Date', sort: 'submission_time', cell: (r) => formatDate(r.submission_time) },
    effective,
    period,
    count,
    products,
  ];
}

/** Saves a blob under a file name through a temporary link. */
function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Quoting or Submissions list (spec part 2, sections 2 and 4). */
export function DashboardList({ kind }: { kind: ListKind }) {
  const ids = useId();
  const [sort, setSort] = useState<SortState>(() => initialSort(kind));
  const [page, setPage] = useState(1);
  const [days, setDays] = useState<Period>(60);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [products, setProducts] = useState<Product[]>([]);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [data, setData] = useState<DashboardListPage | null>(null);
  const [error, setError] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [subdomain, setSubdomain] = useState('');
  const [startedBy, setStartedBy] = useState<StartedBy>('');
  const [infoFor, setInfoFor] = useState<string | null>(null);
  const [enrolling, setEnrolling] = useState<string | null>(null);
  const [enrollError, setEnrollError] = useState(false);
  const agentFullName = useShellStore((st) => st.shell?.agent_full_name ?? '');
  const { resume } = useDashboardActions();

  const query: ListQuery = {
    page,
    sortCol: sort.col,
    sortOrderAsc: sort.asc,
    daysToShow: days,
    searchName: search,
    products,
    subdomain,
    ...(kind === 'quotes' ? { startedBy } : {}),
  };
  const queryKey = JSON.stringify(query);

  // Search after a pause in typing; a new search starts at page 1.
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch((old) => {
        if (old !== searchText) setPage(1);
        return searchText;
      });
    }, 300);
    return () => clearTimeout(t);
  }, [searchText]);

  useEffect(() => {
    const controller = new AbortController();
    const q = JSON.parse(queryKey) as ListQuery;
    getList(kind, q, controller.signal)
      .then((res) => {
        setData(res);
        setError(false);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted || (e instanceof DOMException && e.name === 'AbortError')) return;
        setError(true);
      });
    return () => controller.abort();
  }, [kind, queryKey]);

  const onExport = async () => {
    setExporting(true);
    try {
      download(await exportList(kind, query), EXPORT_FILE_NAMES[kind]);
    } catch {
      // The spec gives exports no error handling; the button comes back.
    } finally {
      setExporting(false);
    }
  };

  const onEnroll = async (row: DashboardRow) => {
    setEnrolling(row.application_id);
    setEnrollError(false);
    try {
      const { route } = await enroll(row.application_id);
      await resume(route);
    } catch {
      setEnrollError(true);
      setEnrolling(null);
    }
  };

  const menuColumn: Column = {
    label: 'Actions',
    cell: (r) => (
      <RowMenu label={`Actions for ${rowName(r)}`} items={rowMenuItems(r, kind, agentFullName, () => setInfoFor(r.application_id))} />
    ),
  };
  const enrollColumn: Column = {
    label: 'Enroll',
    cell: (r) => (
      <Button
        variation="solid"
        size="small"
        disabled={enrolling !== null}
        aria-label={`Enroll ${rowName(r)}`}
        onClick={() => void onEnroll(r)}
      >
        Enroll
      </Button>
    ),
  };
  const cols = [menuColumn, ...columns(kind), ...(kind === 'quotes' ? [enrollColumn] : [])];
  const sites = data?.subdomains ?? [];
  const title = TITLES[kind];
  const items = data ? pageItems(data.page, data.pages) : [];

  return (
    <div className="ef-dashboard ef-dashboard-list">
      <div className="ds-l-row ds-u-align-items--center ds-u-margin-x--0">
        <h1 className="ds-text-heading--2xl ds-u-margin-right--2">
          {title}{' '}
          <Badge variation="info" aria-label={`${data?.total ?? 0} total`}>
            {data?.total ?? 0}
          </Badge>
        </h1>
        <Button variation="solid" size="small" disabled={exporting} onClick={() => void onExport()}>
          {exporting ? 'Exporting…' : 'Export'}
        </Button>
      </div>

      <div className="ds-l-row ds-u-align-items--end ds-u-margin-x--0 ds-u-margin-bottom--2">
        <div className="ds-u-margin-right--2">
          <label className="ds-c-label" htmlFor={`${ids}-period`}>
            Time range
          </label>
          <select
            id={`${ids}-period`}
            className="ds-c-field"
            value={days}
            onChange={(e) => {
              setDays(Number(e.target.value) as Period);
              setPage(1);
            }}
          >
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div className="ds-u-margin-right--2">
          <TextField
            name="searchName"
            label="Search name & email"
            type="search"
            value={searchText}
            onChange={(e: React.ChangeEvent<HTMLInputElement>) => setSearchText(e.target.value)}
          />
        </div>
        <Button
          variation="ghost"
          aria-expanded={filtersOpen}
          aria-controls={`${ids}-filters`}
          onClick={() => setFiltersOpen((o) => !o)}
        >
          Filters
        </Button>
      </div>
      <div id={`${ids}-filters`} hidden={!filtersOpen}>
        <fieldset className="ds-c-fieldset ds-u-margin-top--0 ds-u-margin-bottom--2">
          <legend className="ds-c-label">Products</legend>
          {PRODUCTS.map((p) => (
            <Choice
              key={p}
              type="checkbox"
              name="filterProduct"
              value={p}
              label={PRODUCT_LABELS[p]}
              checked={products.includes(p)}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
                const on = e.target.checked;
                setProducts((old) => (on ? [...old, p] : old.filter((x) => x !== p)));
                setPage(1);
              }}
            />
          ))}
        </fieldset>
        {sites.length > 1 && (
          <div className="ds-u-margin-bottom--2">
            <label className="ds-c-label ds-u-margin-top--0" htmlFor={`${ids}-site`}>
              Site
            </label>
            <select
              id={`${ids}-site`}
              className="ds-c-field"
              value={subdomain}
              onChange={(e) => {
                setSubdomain(e.target.value);
                setPage(1);
              }}
            >
              <option value="">All</option>
              {sites.map((site) => (
                <option key={site} value={site}>
                  {site}
                </option>
              ))}
            </select>
          </div>
        )}
        {kind === 'quotes' && (
          <div className="ds-u-margin-bottom--2">
            <label className="ds-c-label ds-u-margin-top--0" htmlFor={`${ids}-started-by`}>
              Started by
            </label>
            <select
              id={`${ids}-started-by`}
              className="ds-c-field"
              value={startedBy}
              onChange={(e) => {
                setStartedBy(e.target.value as StartedBy);
                setPage(1);
              }}
            >
              {STARTED_BY.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      {(error || enrollError) && (
        <Alert variation="error" heading={GENERIC_ERROR}>
          {DASHBOARD_ERROR}
        </Alert>
      )}
      {infoFor && <AppInfoModal applicationId={infoFor} onClose={() => setInfoFor(null)} />}
      {!data && !error && <Spinner aria-valuetext="Loading" role="status" />}

      {data && (
        // The table scrolls sideways on narrow screens: the region takes keyboard focus to scroll it.
        <div className="ds-u-overflow--auto" tabIndex={0} role="region" aria-label={`${title} results`}>
          <table className="ds-c-table ds-c-table--borderless ef-dashboard__table">
            <caption className="ds-u-visibility--screen-reader">{title}</caption>
            <thead>
              <tr>
                {cols.map((c) => {
                  const active = c.sort !== undefined && sort.col === c.sort;
                  return (
                    <th
                      key={c.label}
                      scope="col"
                      aria-sort={active ? (sort.asc ? 'ascending' : 'descending') : undefined}
                    >
                      {c === menuColumn ? (
                        <span className="ds-u-visibility--screen-reader">{c.label}</span>
                      ) : c.sort ? (
                        <button
                          type="button"
                          className="ds-c-button ds-c-button--ghost ds-u-padding--0"
                          onClick={() => {
                            setSort((s) => toggleSort(s, c.sort!));
                            setPage(1);
                          }}
                        >
                          {c.label}
                          <span aria-hidden="true">{active ? (sort.asc ? ' ▲' : ' ▼') : ''}</span>
                        </button>
                      ) : (
                        c.label
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {data.rows.length === 0 ? (
                <tr>
                  <td colSpan={cols.length}>No results were found</td>
                </tr>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.application_id}>
                    {cols.map((c) => (
                      <td key={c.label}>{c.cell(row)}</td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}

      {data && data.rows.length > 0 && items.length > 1 && (
        <nav aria-label={`${title} pages`} className="ds-u-margin-top--2">
          <ul className="ef-dashboard__pages">
            {items.map((item, i) =>
              item === 'ellipsis' ? (
                <li key={`e${i}`} aria-hidden="true">
                  …
                </li>
              ) : (
                <li key={item}>
                  <button
                    type="button"
                    className={`ds-c-button ds-c-button--small ${item === data.page ? 'ds-c-button--solid' : 'ds-c-button--ghost'}`}
                    aria-current={item === data.page ? 'page' : undefined}
                    aria-label={`Page ${item}`}
                    onClick={() => setPage(item)}
                  >
                    {item}
                  </button>
                </li>
              ),
            )}
          </ul>
        </nav>
      )}
    </div>
  );
}
