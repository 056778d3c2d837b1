import { Alert, Button, Dialog, Spinner } from '@cmsgov/design-system';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { SOURCE_LANGUAGE } from '@/i18n/languages';
import { ApiError } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';
import { Pagination } from './pagination';
import { DASHBOARD_ERROR } from './texts';
import { EmailLanguage } from './email-language';
import {
  FOLLOW_LABELS,
  STATUSES,
  dollars,
  exportRenewals,
  getRenewal,
  getRenewals,
  percent,
  sendRenewal,
  statusLabel,
  type PlanRenewalView,
  type PlanTerms,
  type RenewalDetail,
  type RenewalPage,
  type RenewalRow,
} from '../api/renewals';

/** The worklist's view in the address bar: these keys, as the server reads them. */
const VIEW_KEYS = ['status', 'change', 'follow', 'q', 'page'] as const;

function viewQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const k of VIEW_KEYS) {
    const v = params.get(k);
    if (v) out.set(k, v);
  }
  return out.toString();
}

const name = (r: RenewalRow) => [r.first_name, r.last_name].filter(Boolean).join(' ') || 'Unnamed customer';

/**
 * Renewals (`/dashboard/renewals`): the agent's customers of last plan year, each renewed by the
 * rules into the new year, riskiest first (a carrier leaving, no successor, another plan, a member
 * ageing off, a premium change of 5% or more, the same plan), then the largest change. Filters and
 * the search live in the address; each row opens this year, the renewal and two alternatives side
 * by side, and Send Renewal Options mails the customer a link to choose and re-enroll.
 */
export function RenewalsPage() {
  const [params, setParams] = useSearchParams();
  const query = viewQuery(params);
  const [page, setPage] = useState<RenewalPage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [search, setSearch] = useState(params.get('q') ?? '');
  const ids = { status: useId(), change: useId(), follow: useId(), q: useId() };

  const load = useCallback(() => {
    let active = true;
    getRenewals(query).then(
      (p) => {
        if (active) {
          setPage(p);
          setProblem(null);
        }
      },
      (e: unknown) => active && setProblem(e instanceof ApiError && e.status === 409 ? e.message : DASHBOARD_ERROR),
    );
    return () => {
      active = false;
    };
  }, [query]);
  useEffect(load, [load]);

  const setView = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next);
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setView('q', search.trim());
  };
  const onExport = async () => {
    setExporting(true);
    try {
      saveFile(await exportRenewals(query), 'Renewals.xlsx');
    } catch {
      setProblem(DASHBOARD_ERROR);
    } finally {
      setExporting(false);
    }
  };
  const hrefFor = (n: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(n));
    return `/dashboard/renewals?${next.toString()}`;
  };

  return (
    <div className="ef-dashboard ef-renewals">
      <h1 className="ds-text-heading--2xl">Renewals{page ? ` for ${page.plan_year}` : ''}</h1>
      <form className="ef-renewals__filters" onSubmit={onSearch} role="search" aria-label="Renewals">
        <div>
          <label className="ds-c-label" htmlFor={ids.status}>
            Status
          </label>
          <select id={ids.status} className="ds-c-field" value={params.get('status') ?? ''} onChange={(e) => setView('status', e.target.value)}>
            <option value="">All statuses</option>
            {STATUSES.map((k) => (
              <option key={k} value={k}>
                {statusLabel(k, page?.notable_change_percent)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label className="ds-c-label" htmlFor={ids.change}>
            Premium
          </label>
          <select id={ids.change} className="ds-c-field" value={params.get('change') ?? ''} onChange={(e) => setView('change', e.target.value)}>
            <option value="">Any change</option>
            <option value="up">Increases</option>
            <option value="down">Decreases</option>
          </select>
        </div>
        <div>
          <label className="ds-c-label" htmlFor={ids.follow}>
            Follow-up
          </label>
          <select id={ids.follow} className="ds-c-field" value={params.get('follow') ?? ''} onChange={(e) => setView('follow', e.target.value)}>
            <option value="">Any</option>
            {Object.entries(FOLLOW_LABELS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label className="ds-c-label" htmlFor={ids.q}>
            Customer name
          </label>
          <input id={ids.q} className="ds-c-field" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="ef-renewals__buttons">
          <Button type="submit">Search</Button>
          <Button type="button" variation="ghost" onClick={() => void onExport()} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export to Excel'}
          </Button>
        </div>
      </form>
      {problem && (
        <Alert variation="error" role="alert">
          {problem}
        </Alert>
      )}
      {!page && !problem && <Spinner aria-valuetext="Loading" role="status" />}
      {page && (
        <>
          <p role="status" aria-live="polite">
            {page.total} {page.total === 1 ? 'customer' : 'customers'}
          </p>
          <div className="ef-renewals__table-wrap">
            <table className="ds-c-table ds-c-table--compact ef-renewals__table">
              <caption className="ds-u-visibility--screen-reader">Renewals, riskiest first</caption>
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col">Plans</th>
                  <th scope="col">This Year</th>
                  <th scope="col">Next Year</th>
                  <th scope="col">Change</th>
                  <th scope="col">Follow-up</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.length === 0 ? (
                  <tr>
                    <td colSpan={7}>No results were found</td>
                  </tr>
                ) : (
                  page.rows.map((r) => (
                    <tr key={r.id}>
                      <th scope="row">
                        <button type="button" className="ds-c-button ds-c-button--ghost ef-renewals__open" onClick={() => setOpen(r.id)}>
                          {name(r)}
                        </button>
                      </th>
                      <td>
                        <span className={`ef-renewal-status ef-renewal-status--${r.status}`}>{statusLabel(r.status, page.notable_change_percent)}</span>
                      </td>
                      <td>
                        {r.plans.map((p) => (
                          <div key={p.kind}>
                            {p.current} → {p.renewal ?? 'no successor'}
                          </div>
                        ))}
                      </td>
                      <td>{dollars(r.current_premium)}</td>
                      <td>{dollars(r.next_premium)}</td>
                      <td className={r.change_percent > 0 ? 'ef-renewals__up' : undefined}>{percent(r.change_percent)}</td>
                      <td>{FOLLOW_LABELS[r.follow] ?? r.follow}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          <Pagination page={page.page} pages={page.pages} hrefFor={hrefFor} onPage={(n) => setView('page', String(n))} />
        </>
      )}
      {open && <RenewalDialog id={open} notable={page?.notable_change_percent} onClose={() => setOpen(null)} onChanged={load} />}
    </div>
  );
}

/** This year's plan, the renewal and the alternatives of one kind, each a column. */
export function SideBySide({ plan }: { plan: PlanRenewalView }) {
  const columns: { title: string; terms: PlanTerms | null }[] = [
    { title: 'This year', terms: plan.current },
    { title: 'Renewal', terms: plan.renewal ?? null },
    ...plan.alternatives.map((t, i) => ({ title: `Alternative ${i + 1}`, terms: t })),
  ];
  const members = plan.current.members.map((m) => m.member);
  const cell = (t: PlanTerms | null, f: (t: PlanTerms) => React.ReactNode) => <td>{t ? f(t) : '—'}</td>;
  return (
    <div className="ef-renewals__table-wrap">
      <table className="ds-c-table ds-c-table--compact ef-side-by-side">
        <caption className="ds-u-text-align--left">
          {plan.kind.charAt(0).toUpperCase() + plan.kind.slice(1)} coverage
        </caption>
        <thead>
          <tr>
            <td />
            {columns.map((c) => (
              <th key={c.title} scope="col">
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Plan</th>
            {columns.map((c) => (
              <td key={c.title}>{c.terms ? `${c.terms.name} (${c.terms.carrier})` : plan.carrier_leaves ? 'The carrier leaves your county' : 'Discontinued'}</td>
            ))}
          </tr>
          <tr>
            <th scope="row">Monthly premium</th>
            {columns.map((c) => (
              <td key={c.title} className="ds-u-font-weight--bold">
                {c.terms ? dollars(c.terms.premium) : '—'}
              </td>
            ))}
          </tr>
          {members.map((m) => (
            <tr key={m}>
              <th scope="row">{m}</th>
              {columns.map((c) => cell(c.terms, (t) => dollars(t.members.find((x) => x.member === m)?.premium ?? 0)))}
            </tr>
          ))}
          <tr>
            <th scope="row">Deductible</th>
            {columns.map((c) => cell(c.terms, (t) => dollars(t.deductible)))}
          </tr>
          <tr>
            <th scope="row">Out-of-pocket maximum</th>
            {columns.map((c) => cell(c.terms, (t) => dollars(t.out_of_pocket_max)))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function RenewalDialog({ id, notable, onClose, onChanged }: { id: string; notable: number | undefined; onClose: () => void; onChanged: () => void }) {
  const [detail, setDetail] = useState<RenewalDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [language, setLanguage] = useState<string>(SOURCE_LANGUAGE);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let active = true;
    getRenewal(id).then(
      (d) => active && setDetail(d),
      () => active && setProblem(DASHBOARD_ERROR),
    );
    return () => {
      active = false;
    };
  }, [id]);

  const send = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await sendRenewal(id, language);
      setDone(`Renewal options sent to ${detail?.email ?? 'the customer'}. The link works once, for 14 days.`);
      setDetail(await getRenewal(id));
      onChanged();
    } catch (e) {
      setProblem(e instanceof ApiError && e.status !== 500 ? e.message : DASHBOARD_ERROR);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      isOpen
      onExit={onClose}
      size="full"
      heading={detail ? `${name(detail)}: renewal for ${detail.renewal.plan_year}` : 'Renewal'}
      actions={
        <>
          <Button variation="solid" onClick={() => void send()} disabled={busy || !detail || detail.follow === 'reenrolled'} className="ds-u-margin-right--1">
            Send Renewal Options
          </Button>
          <Button variation="ghost" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      <div role="status" aria-live="polite">
        {done && <Alert variation="success">{done}</Alert>}
      </div>
      {problem && (
        <Alert variation="error" role="alert">
          {problem}
        </Alert>
      )}
      {!detail && !problem && <Spinner aria-valuetext="Loading" role="status" />}
      {detail && (
        <>
          <p className="ds-u-margin-top--0">
            <span className={`ef-renewal-status ef-renewal-status--${detail.status}`}>{statusLabel(detail.status, notable)}</span>{' '}
            {dollars(detail.current_premium)} a month now, {dollars(detail.next_premium)} from {detail.renewal.effective_date} (
            {percent(detail.change_percent)}). Follow-up: {FOLLOW_LABELS[detail.follow] ?? detail.follow}.
          </p>
          {detail.renewal.plans.map((p) => (
            <section key={p.kind} className="ds-u-margin-bottom--3">
              {p.reason && <Alert variation="warn">{p.reason}</Alert>}
              {p.aging_off.map((a) => (
                <Alert key={a.member} variation="warn">
                  {a.member} {a.says}
                </Alert>
              ))}
              <SideBySide plan={p} />
            </section>
          ))}
          <EmailLanguage value={language} onChange={setLanguage} />
          <p className="ds-u-font-size--sm">Sent to {detail.email ?? 'no address on file'}.</p>
        </>
      )}
    </Dialog>
  );
}
