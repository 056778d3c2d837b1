import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { getRenewalCounts, type RenewalCounts } from '../api/renewals';

/** The dashboard home's Renewals card: to do, sent, done, and the days left in open enrollment. */
export function RenewalsCard() {
  const headingId = useId();
  const [counts, setCounts] = useState<RenewalCounts | null>(null);
  useEffect(() => {
    let active = true;
    getRenewalCounts().then(
      (c) => active && setCounts(c),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);
  if (!counts) return null;
  return (
    <section className="ds-c-card ef-dash-card ef-renewals-card" aria-labelledby={headingId}>
      <div className="ef-dash-card__header">
        <h2 id={headingId} className="ds-text-heading--lg ds-u-margin-top--0">
          Renewals for {counts.plan_year}
        </h2>
        <Link to="/dashboard/renewals">Open the worklist</Link>
      </div>
      <dl className="ef-renewals-card__counts">
        <div>
          <dt>To do</dt>
          <dd>
            <Link to="/dashboard/renewals?follow=to_do">{counts.to_do}</Link>
          </dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>
            <Link to="/dashboard/renewals?follow=sent">{counts.sent}</Link>
          </dd>
        </div>
        <div>
          <dt>Done</dt>
          <dd>
            <Link to="/dashboard/renewals?follow=reenrolled">{counts.done}</Link>
          </dd>
        </div>
        {typeof counts.days_left === 'number' && (
          <div>
            <dt>Days left in Open Enrollment</dt>
            <dd>{counts.days_left}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
