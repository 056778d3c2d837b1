import { Alert, Badge, Button, Choice, Spinner, TextField } from '@cmsgov/design-system';
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import { GENERIC_ERROR } from '@/lib/api-client';
import { useFlowStore } from '@/lib/flow';
import { saveFile } from '@/lib/save-file';
import { SCENARIO_FILE_NAME, downloadScenario } from '../api/save-scenario';
import { useEnroll } from '../hooks/use-enroll';
import { useExport } from '../hooks/use-export';
import { useListData } from '../hooks/use-list-data';
import { useShellStore } from '../stores/shell-store';
import type { DashboardRow, ListKind, Period, Product, SortCol, StartedBy } from '../types';
import { AGENT_TIME_LABEL, AGENT_TIME_ZONE, formatDate, rowName } from '../utils/format';
import { paramsFromQuery, queryFromParams } from '../utils/list-url';
import { mailtoHref } from '../utils/mailto';
import { PERIODS, PRODUCTS, STARTED_BY, type ListQuery } from '../utils/query';
import { initialSort, toggleSort, type SortState } from '../utils/sort';
import { AppInfoModal } from './app-info-modal';
import { EvidenceModal } from './evidence-modal';
import { HandoffModal } from './handoff-modal';
import { handoffBadge } from '../utils/handoff';
import { Pagination } from './pagination';
import { ProductBadges } from './product-badges';
import { RowMenu, type RowMenuItem } from './row-menu';
import { DASHBOARD_ERROR } from './texts';

const TITLES: Record<ListKind, string> = { quotes: 'Quoting', enrollees: 'Submissions' };
/** The pause in typing after which a search runs. */
export const SEARCH_DELAY_MS = 300;
/** The history state of an entry a search made: further typing replaces it rather than add one. */
const SEARCH_ENTRY = { listSearch: true } as const;
const PRODUCT_LABELS: Record<Product, string> = { medical: 'Medical', dental: 'Dental', vision: 'Vision' };

interface Column {
  label: string;
  sort?: SortCol;
  cell: (row: DashboardRow) => React.ReactNode;
  /** The name column stays in view while the table scrolls sideways. */
  sticky?: boolean;
}

/** An e-mail address that may wrap before its `@`, not anywhere. */
function EmailAddress({ address }: { address: string }) {
  const at = address.indexOf('@');
  return (
    <span className="ef-dashboard__email">
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </span>
  );
}

/** The title of the last step a quote reached (its number in the flow's steps). */
export function lastStepTitle(row: DashboardRow): string {
  const n = row.last_application_step_type_id;
  return useFlowStore.getState().flow?.steps.find((s) => s.number === n)?.title ?? String(n);
}

/** Quoting's Started By: the agent's user who started it, or Consumer. */
function startedBy(row: DashboardRow): string {
  if (row.agent_started === false) return 'Consumer';
  if (row.agent_started) return row.started_by || 'Agent';
  return row.started_by || 'Consumer';
}

/**
 * The row menu's entries: More Info, Send Email (with an address), View Medical SBC (with a link),
 * Save as scenario (the application replayed as a YAML scenario for the rules' testers) and, on
 * Submissions, Evidence Packet (what was submitted, agreed to and signed, as stored at the purchase);
 * on Quoting, Send to Customer (the application e-mailed to the customer to finish and purchase).
 */
export function rowMenuItems(
  row: DashboardRow,
  kind: ListKind,
  agentFullName: string,
  onMoreInfo: () => void,
  onSaveScenario?: () => void,
  onEvidence?: () => void,
  onHandoff?: () => void,
): RowMenuItem[] {
  const items: RowMenuItem[] = [{ kind: 'button', label: 'More Info', onSelect: onMoreInfo }];
  if (row.sub_email) items.push({ kind: 'link', label: 'Send Email', href: mailtoHref(row, agentFullName, kind) });
  if (row.sbc_url) items.push({ kind: 'link', label: 'View Medical SBC', href: row.sbc_url, newTab: true });
  if (onSaveScenario) items.push({ kind: 'button', label: 'Save as scenario', onSelect: onSaveScenario });
  if (onEvidence && kind === 'enrollees') items.push({ kind: 'button', label: 'Evidence Packet', onSelect: onEvidence });
  if (onHandoff && kind === 'quotes') items.push({ kind: 'button', label: 'Send to Customer', onSelect: onHandoff });
  return items;
}

/** The subscriber's name, and where a hand-off to the customer stands. */
function nameWithHandoff(row: DashboardRow): React.ReactNode {
  const badge = handoffBadge(row.handoff);
  return badge ? (
    <>
      {rowName(row)}
      <span className="ds-c-badge ef-handoff-badge">{badge}</span>
    </>
  ) : (
    rowName(row)
  );
}

/**
 * The columns of each list. Quoting (spec part 2): "the primary name, email, started by, created
 * date, effective date, last step and product badges". Submissions, exactly: "row menu, Subscriber
 * Name, Submit Date, Effective Date, OEP/SEP, Contract Count, Products". An instant (created,
 * submitted) is shown on its day in Michigan, and its header says so; an effective date has no zone.
 */
function columns(kind: ListKind): Column[] {
  const name: Column = { label: 'Subscriber Name', sort: 'last_name', cell: nameWithHandoff, sticky: true };
  const effective: Column = { label: 'Effective Date', sort: 'effective_date', cell: (r) => formatDate(r.effective_date) };
  const products: Column = { label: 'Products', cell: (r) => <ProductBadges row={r} /> };
  if (kind === 'quotes') {
    return [
      name,
      { label: 'Email', cell: (r) => <EmailAddress address={r.sub_email} /> },
      { label: 'Started By', cell: startedBy },
      { label: `Created Date (${AGENT_TIME_LABEL})`, sort: 'created_at', cell: (r) => formatDate(r.created_at) },
      effective,
      { label: 'Last Step', cell: lastStepTitle },
      products,
    ];
  }
  return [
    name,
    { label: `Submit Date (${AGENT_TIME_LABEL})`, sort: 'submission_time', cell: (r) => formatDate(r.submission_time) },
    effective,
    { label: 'OEP/SEP', cell: (r) => r.period_badge },
    { label: 'Contract Count', cell: (r) => r.contract_count },
    products,
  ];
}

/** The Quoting or Submissions list (spec part 2, sections 2 and 4). */
export function DashboardList({ kind }: { kind: ListKind }) {
  const ids = useId();
  // The view is the address's: page, period, search, products, site, started by and sort.
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const query = queryFromParams(kind, params);
  const { daysToShow: days, products, subdomain = '', startedBy = '' } = query;
  // Each column's last direction (a column clicked again later starts from it).
  const [stored, setStored] = useState<SortState['stored']>(() => initialSort(kind).stored);
  const sort: SortState = { col: query.sortCol, asc: query.sortOrderAsc, stored };
  const [searchText, setSearchText] = useState(query.searchName);
  const [filtersOpen, setFiltersOpen] = useState(products.length > 0 || subdomain !== '' || startedBy !== '');
  const { data, error, reload } = useListData(kind, query);
  const { exporting, exportFailed, exportButton, onExport } = useExport(kind, query);
  const { enrolling, enrollError, onEnroll } = useEnroll();
  const [infoFor, setInfoFor] = useState<string | null>(null);
  const [evidenceFor, setEvidenceFor] = useState<string | null>(null);
  const [handoffFor, setHandoffFor] = useState<DashboardRow | null>(null);
  const [scenarioFailed, setScenarioFailed] = useState(false);
  const saveScenario = async (applicationId: string) => {
    try {
      saveFile(await downloadScenario(applicationId), SCENARIO_FILE_NAME);
      setScenarioFailed(false);
    } catch {
      setScenarioFailed(true);
    }
  };
  const agentFullName = useShellStore((st) => st.shell?.agent_full_name ?? '');

  /**
   * A new view in the address: any change but the page's starts again at page 1 (spec part 2:
   * "Changing any filter, period, search or sort reloads the data"); each is a step of the history.
   */
  const update = (change: Partial<ListQuery>) => {
    setParams((prev) => paramsFromQuery(kind, { ...queryFromParams(kind, prev), page: 1, ...change }));
  };
  const hrefFor = (n: number) => {
    const qs = paramsFromQuery(kind, { ...query, page: n }).toString();
    return `${location.pathname}${qs ? `?${qs}` : ''}`;
  };

  // Back, Forward or a shared link may bring another search: the field shows it. The search this
  // list put in the address itself is not brought back to the field (typing may have gone on).
  const urlSearch = query.searchName;
  const [shownSearch, setShownSearch] = useState(urlSearch);
  const [committedSearch, setCommittedSearch] = useState<string | null>(null);
  if (shownSearch !== urlSearch) {
    setShownSearch(urlSearch);
    if (urlSearch === committedSearch) setCommittedSearch(null);
    else setSearchText(urlSearch);
  }
  // Search after a pause in typing. A search is one step of the history, not one per keystroke:
  // its first change adds an entry, the changes after it replace that entry.
  const inSearchEntry = (location.state as Partial<typeof SEARCH_ENTRY> | null)?.listSearch === true;
  // While the app goes elsewhere (Enroll, a link: their guards load first), a search must not start
  // a navigation of its own: it would cancel the one under way.
  const navigation = useNavigation();
  const leaving = navigation.state !== 'idle' && navigation.location.pathname !== location.pathname;
  // Enroll too: a search typed just before it would otherwise land after the click.
  useEffect(() => {
    const search = searchText.trim();
    if (search === urlSearch || leaving || enrolling !== null) return;
    const t = setTimeout(() => {
      setCommittedSearch(search);
      setParams((prev) => paramsFromQuery(kind, { ...queryFromParams(kind, prev), page: 1, searchName: search }), {
        replace: inSearchEntry,
        state: SEARCH_ENTRY,
      });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [searchText, urlSearch, inSearchEntry, leaving, enrolling, kind, setParams]);

  // A page past the last (an old link, a list grown shorter) goes to the last page.
  const lastPage = data && data.pages > 0 && query.page > data.pages ? data.pages : null;
  useEffect(() => {
    if (lastPage === null) return;
    setParams((prev) => paramsFromQuery(kind, { ...queryFromParams(kind, prev), page: lastPage }), { replace: true });
  }, [lastPage, kind, setParams]);

  const menuColumn: Column = {
    label: 'Actions',
    cell: (r) => (
      <RowMenu
        label={`Actions for ${rowName(r)}`}
        items={rowMenuItems(
          r,
          kind,
          agentFullName,
          () => setInfoFor(r.application_id),
          () => void saveScenario(r.application_id),
          () => setEvidenceFor(r.application_id),
          () => setHandoffFor(r),
        )}
      />
    ),
  };
  const enrollColumn: Column = {
    label: 'Enroll',
    // An application the customer opened from a hand-off is theirs to finish.
    cell: (r) =>
      r.handoff?.opened_at ? (
        <span className="ef-dashboard__note">With the customer</span>
      ) : (
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

  return (
    <div className="ef-dashboard ef-dashboard-list">
      <div className="ds-l-row ds-u-align-items--center ds-u-margin-x--0">
        <h1 className="ds-text-heading--2xl ds-u-margin-right--2">
          {title}{' '}
          <Badge variation="info" aria-label={`${data?.total ?? 0} total`}>
            {data?.total ?? 0}
          </Badge>
        </h1>
        <Button variation="solid" size="small" disabled={exporting} inputRef={exportButton} onClick={() => void onExport()}>
          {exporting ? 'Exporting…' : 'Export'}
        </Button>
      </div>
      {scenarioFailed && (
        <Alert variation="error" heading="The scenario could not be saved" className="ds-u-margin-y--2">
          <p className="ds-c-alert__text">Please try again from the row&apos;s menu.</p>
        </Alert>
      )}
      {exportFailed && (
        // An error alert (role="alert"): announced when it appears. Retry keeps its focus while the
        // export runs again (aria-disabled, not disabled, which would drop the focus).
        <Alert variation="error" heading="The export failed" className="ds-u-margin-y--2">
          <p className="ds-c-alert__text">
            The {title} list could not be exported. Please try again; if it keeps failing, contact your account manager.
          </p>
          <Button variation="solid" size="small" aria-disabled={exporting} onClick={() => void onExport()}>
            Retry
          </Button>
        </Alert>
      )}

      <div className="ds-l-row ds-u-align-items--end ds-u-margin-x--0 ds-u-margin-bottom--2">
        <div className="ds-u-margin-right--2">
          <label className="ds-c-label" htmlFor={`${ids}-period`}>
            Time range
          </label>
          <select
            id={`${ids}-period`}
            className="ds-c-field"
            value={days}
            onChange={(e) => update({ daysToShow: Number(e.target.value) as Period })}
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
                update({ products: on ? [...products, p] : products.filter((x: Product) => x !== p) });
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
              onChange={(e) => update({ subdomain: e.target.value })}
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
              onChange={(e) => update({ startedBy: e.target.value as StartedBy })}
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
        <Alert variation="error" heading={GENERIC_ERROR.id}>
          {DASHBOARD_ERROR}
        </Alert>
      )}
      {infoFor && <AppInfoModal applicationId={infoFor} onClose={() => setInfoFor(null)} />}
      {evidenceFor && <EvidenceModal applicationId={evidenceFor} onClose={() => setEvidenceFor(null)} />}
      {handoffFor && (
        <HandoffModal applicationId={handoffFor.application_id} email={handoffFor.sub_email} onClose={() => setHandoffFor(null)} onChanged={reload} />
      )}
      {!data && !error && <Spinner aria-valuetext="Loading" role="status" />}

      {data && (
        // A table that needs more room scrolls inside its own container (the name column stays in
        // view); the region takes keyboard focus to scroll it. Below 768 px each row is a card
        // (dashboard.css): the explicit roles keep it a table for screen readers, which some
        // browsers drop from table elements no longer displayed as a table.
        <div className="ef-dashboard__scroll" tabIndex={0} role="region" aria-label={`${title} results`}>
          <table role="table" className="ds-c-table ds-c-table--borderless ef-dashboard__table">
            <caption className="ds-u-visibility--screen-reader">
              {title}. {kind === 'quotes' ? 'Created' : 'Submit'} dates are {AGENT_TIME_LABEL} ({AGENT_TIME_ZONE}).
            </caption>
            <thead role="rowgroup">
              <tr role="row">
                {cols.map((c) => {
                  const active = c.sort !== undefined && sort.col === c.sort;
                  return (
                    <th
                      key={c.label}
                      role="columnheader"
                      scope="col"
                      className={c.sticky ? 'ef-dashboard__sticky' : undefined}
                      aria-sort={active ? (sort.asc ? 'ascending' : 'descending') : undefined}
                    >
                      {c === menuColumn ? (
                        <span className="ds-u-visibility--screen-reader">{c.label}</span>
                      ) : c.sort ? (
                        <button
                          type="button"
                          className="ds-c-button ds-c-button--ghost ds-u-padding--0"
                          onClick={() => {
                            const next = toggleSort(sort, c.sort!);
                            setStored(next.stored);
                            update({ sortCol: next.col, sortOrderAsc: next.asc });
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
            <tbody role="rowgroup">
              {data.rows.length === 0 ? (
                <tr role="row">
                  <td role="cell" colSpan={cols.length}>
                    No results were found
                  </td>
                </tr>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.application_id} role="row">
                    {cols.map((c) => (
                      <td
                        key={c.label}
                        role="cell"
                        data-label={c === menuColumn ? undefined : c.label}
                        className={c.sticky ? 'ef-dashboard__sticky' : undefined}
                      >
                        {c.cell(row)}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}

      {/* Spec part 2: "Pagination footer hidden with no rows". */}
      {data && data.rows.length > 0 && (
        <Pagination page={data.page} pages={data.pages} hrefFor={hrefFor} onPage={(n) => update({ page: n })} />
      )}
    </div>
  );
}
