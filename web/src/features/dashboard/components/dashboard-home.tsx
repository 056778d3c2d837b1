import { Alert, Spinner } from '@cmsgov/design-system';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { getCarrierShare } from '../api/get-carrier-share';
import { getCountdown, type CountdownKind } from '../api/get-countdown';
import { getEnrollmentsYtd } from '../api/get-enrollments-ytd';
import { getRecent } from '../api/get-recent';
import { useShellStore } from '../stores/shell-store';
import type { CarrierShare, Countdown, DashboardListPage, EnrollmentsYtd, ListKind } from '../types';
import { AGENT_TIME_LABEL, formatDate, rowName } from '../utils/format';
import { CarriersChart, EnrollmentsChart } from './charts';
import { NotificationsCard } from './notifications-card';
import { ProductBadges } from './product-badges';
import { DASHBOARD_ERROR } from './texts';
import { RenewalsCard } from './renewals-card';

type Load<T> = { state: 'loading' } | { state: 'error' } | { state: 'done'; value: T };

/** One call's state; `enabled` false leaves it loading without calling. */
function useLoad<T>(fetcher: () => Promise<T>, enabled = true): Load<T> {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    fetcher().then(
      (value) => {
        if (active) setResult({ state: 'done', value });
      },
      () => {
        if (active) setResult({ state: 'error' });
      },
    );
    return () => {
      active = false;
    };
  }, [fetcher, enabled]);
  return result;
}

const COUNTDOWN_TITLES: Record<CountdownKind, string> = {
  Individual: 'Individual Open Enrollment',
  Medicare: 'Medicare Annual Enrollment',
};

const loadIndividual = () => getCountdown('Individual');
const loadMedicare = () => getCountdown('Medicare');
const loadQuotes = () => getRecent('quotes');
const loadEnrollees = () => getRecent('enrollees');

/** A countdown card, drawn only when `days` is a number (spec part 2, Dashboard home). */
export function CountdownCard({ kind, countdown }: { kind: CountdownKind; countdown: Countdown }) {
  const headingId = useId();
  if (typeof countdown.days !== 'number') return null;
  return (
    <section className="ds-c-card ef-dash-card ef-countdown" aria-labelledby={headingId}>
      <h2 id={headingId} className="ds-text-heading--lg ds-u-margin-top--0">
        {COUNTDOWN_TITLES[kind]}
      </h2>
      <p className="ef-countdown__days">
        <span className="ef-countdown__number">{countdown.days}</span>{' '}
        {/* The server's message names the unit ("days left in Open Enrollment …"). */}
        {countdown.message ? (
          <span className="ef-countdown__message">{countdown.message}</span>
        ) : (
          <span>{countdown.days === 1 ? 'day' : 'days'}</span>
        )}
      </p>
    </section>
  );
}

function CountdownSlot({ kind, load }: { kind: CountdownKind; load: Load<Countdown> }) {
  if (load.state === 'loading') return null;
  if (load.state === 'error') return <Alert variation="error">{DASHBOARD_ERROR}</Alert>;
  return <CountdownCard kind={kind} countdown={load.value} />;
}

// The created and submit dates are days in Michigan, as on the lists (utils/format.ts).
const RECENT: Record<ListKind, { title: string; dateLabel: string; link: string; date: (r: DashboardListPage['rows'][number]) => string }> = {
  quotes: {
    title: 'Recent Quotes',
    dateLabel: `Created Date (${AGENT_TIME_LABEL})`,
    link: '/dashboard/quoting',
    date: (r) => formatDate(r.created_at),
  },
  enrollees: {
    title: 'Recent Submissions',
    dateLabel: `Submit Date (${AGENT_TIME_LABEL})`,
    link: '/dashboard/enrolled',
    date: (r) => formatDate(r.submission_time),
  },
};

/** Five rows of quotes or submissions with a link to the whole list. */
export function RecentTable({ kind, load }: { kind: ListKind; load: Load<DashboardListPage> }) {
  const meta = RECENT[kind];
  const headingId = useId();
  return (
    <section className="ef-recent" aria-labelledby={headingId}>
      <div className="ef-dash-card__header">
        <h3 id={headingId} className="ds-text-heading--lg">
          {meta.title}
        </h3>
        <Link to={meta.link}>View all {kind === 'quotes' ? 'quotes' : 'submissions'}</Link>
      </div>
      {load.state === 'loading' && <Spinner aria-valuetext="Loading" role="status" />}
      {load.state === 'error' && <Alert variation="error">{DASHBOARD_ERROR}</Alert>}
      {load.state === 'done' && (
        <table className="ds-c-table ds-c-table--borderless ds-c-table--compact ef-recent__table">
          <caption className="ds-u-visibility--screen-reader">{meta.title}</caption>
          <thead>
            <tr>
              <th scope="col">Subscriber Name</th>
              <th scope="col">{meta.dateLabel}</th>
              <th scope="col">Effective Date</th>
              <th scope="col">Products</th>
            </tr>
          </thead>
          <tbody>
            {load.value.rows.length === 0 ? (
              <tr>
                <td colSpan={4}>No results were found</td>
              </tr>
            ) : (
              load.value.rows.slice(0, 5).map((r) => (
                <tr key={r.application_id}>
                  <td>{rowName(r)}</td>
                  <td>{meta.date(r)}</td>
                  <td>{formatDate(r.effective_date)}</td>
                  <td>
                    <ProductBadges row={r} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ChartSlot<T>({ load, render }: { load: Load<T>; render: (value: T) => React.ReactNode }) {
  if (load.state === 'loading') return <Spinner aria-valuetext="Loading" role="status" />;
  if (load.state === 'error') return <Alert variation="error">{DASHBOARD_ERROR}</Alert>;
  return <>{render(load.value)}</>;
}

/**
 * dashboard-home (spec part 2, Dashboard home): Notifications, the individual countdown, the
 * Medicare countdown (agents with the display-medicare flag), and the Off Marketplace card.
 */
export function DashboardHome() {
  const offId = useId();
  const shell = useShellStore((s) => s.shell);
  const individual = useLoad<Countdown>(loadIndividual);
  const medicare = useLoad<Countdown>(loadMedicare, shell?.display_medicare === true);
  const quotes = useLoad<DashboardListPage>(loadQuotes);
  const enrollees = useLoad<DashboardListPage>(loadEnrollees);
  const ytd = useLoad<EnrollmentsYtd>(getEnrollmentsYtd);
  const carriers = useLoad<CarrierShare>(getCarrierShare);

  return (
    <div className="ef-dashboard ef-dashboard-home">
      <h1 className="ds-text-heading--2xl">Dashboard</h1>
      <div className="ef-dashboard-home__top">
        <NotificationsCard />
        <div className="ef-dashboard-home__countdowns">
          <CountdownSlot kind="Individual" load={individual} />
          {shell?.display_medicare && <CountdownSlot kind="Medicare" load={medicare} />}
          <RenewalsCard />
        </div>
      </div>
      <section className="ds-c-card ef-dash-card ds-u-margin-top--3" aria-labelledby={offId}>
        <h2 id={offId} className="ds-text-heading--xl ds-u-margin-top--0">
          Off Marketplace
        </h2>
        <div className="ef-dashboard-home__grid">
          <RecentTable kind="quotes" load={quotes} />
          <RecentTable kind="enrollees" load={enrollees} />
          <ChartSlot load={ytd} render={(v) => <EnrollmentsChart data={v} />} />
          <ChartSlot load={carriers} render={(v) => <CarriersChart data={v} />} />
        </div>
      </section>
    </div>
  );
}
