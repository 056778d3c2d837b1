import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { errorText } from '@/lib/api-client';
import './renewal-page.css';
import { choosePlans, getOffer, type PlanRenewalView, type PlanTerms, type RenewalOffer } from '../api/renewal';

type Kind = 'medical' | 'dental' | 'vision';
const KINDS: Kind[] = ['medical', 'dental', 'vision'];

/** A YYYY-MM-DD day in the page's language ("January 1, 2025"). */
function longDate(day: string, locale: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(locale, { dateStyle: 'long', timeZone: 'UTC' });
}

/** Dollars in the page's language. */
function money(n: number | null | undefined, locale: string): string {
  return typeof n === 'number' ? n.toLocaleString(locale, { style: 'currency', currency: 'USD' }) : '—';
}

/**
 * The customer's renewal page (`/renewal`), after their agent's renewal link: for each kind of
 * coverage this year's plan, next year's renewal and two other plans, with what each person pays a
 * month; the customer chooses, and the new year's application goes on with last year's answers
 * filled in, at the first step the new rules want another look at. Drawn with the design system's
 * classes (the wizard's bundle).
 */
export function RenewalPage({ onChosen }: { onChosen: () => Promise<unknown> }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const [offer, setOffer] = useState<RenewalOffer | null>(null);
  const [problem, setProblem] = useState<{ error: unknown } | null>(null);
  const [choice, setChoice] = useState<Record<Kind, number | null>>({ medical: null, dental: null, vision: null });
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const formId = useId();

  useEffect(() => {
    let active = true;
    getOffer().then(
      (o) => {
        if (!active) return;
        setOffer(o);
        // The renewal is chosen unless the customer picks another plan.
        const initial: Record<Kind, number | null> = { medical: null, dental: null, vision: null };
        for (const p of o.renewal.plans) {
          initial[p.kind as Kind] = p.renewal?.plan_id ?? p.alternatives[0]?.plan_id ?? null;
        }
        setChoice(initial);
      },
      (e: unknown) => active && setProblem({ error: e }),
    );
    return () => {
      active = false;
    };
  }, []);

  useLayoutEffect(() => {
    if (offer || problem) heading.current?.focus();
  }, [offer, problem]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    choosePlans(choice).then(
      async (r) => {
        await onChosen();
        void navigate(r.route);
      },
      (err: unknown) => {
        setBusy(false);
        setProblem({ error: err });
      },
    );
  };

  const kindTitle = (k: string) =>
    k === 'medical' ? i18n._('Medical coverage') : k === 'dental' ? i18n._('Dental coverage') : i18n._('Vision coverage');
  const member = (m: string) => {
    const n = /^Dependent (\d+)$/.exec(m);
    if (n) return i18n._('Dependent {number}', { number: n[1] });
    return m === 'Spouse' ? i18n._('Spouse') : i18n._('Subscriber');
  };
  const describe = (t: PlanTerms) => (
    <>
      <span className="ds-u-font-weight--bold">{t.name}</span> ({t.carrier}) —{' '}
      <span className="ds-u-font-weight--bold">{i18n._('{amount} a month', { amount: money(t.premium, i18n.locale) })}</span>
      <span className="ef-renewal__members">
        {t.members.map((m) => `${member(m.member)}: ${money(m.premium, i18n.locale)}`).join(' · ')}
      </span>
    </>
  );
  const option = (p: PlanRenewalView, t: PlanTerms, label: string) => (
    <label key={t.plan_id} className="ef-renewal__option">
      <input
        type="radio"
        className="ds-c-choice"
        name={`${formId}-${p.kind}`}
        checked={choice[p.kind as Kind] === t.plan_id}
        onChange={() => setChoice({ ...choice, [p.kind]: t.plan_id })}
      />
      <span>
        <span className="ef-renewal__tag">{label}</span> {describe(t)}
      </span>
    </label>
  );

  return (
    <div className="ds-l-container ds-u-padding-y--4 ef-renewal">
      {!offer && !problem && <span className="ds-c-spinner" role="status" aria-valuetext={i18n._('Loading')} />}
      {problem && !offer && (
        <>
          <h1 ref={heading} tabIndex={-1} className="ds-text-heading--2xl">
            <Trans id="Your renewal could not be shown" />
          </h1>
          <div className="ds-c-alert ds-c-alert--error" role="alert">
            <div className="ds-c-alert__body">
              <p className="ds-c-alert__text">{errorText(problem.error, i18n)}</p>
            </div>
          </div>
        </>
      )}
      {offer && (
        <form onSubmit={submit} noValidate>
          <h1 ref={heading} tabIndex={-1} className="ds-text-heading--2xl">
            <Trans id="Your coverage for {year}" values={{ year: offer.renewal.plan_year }} />
          </h1>
          <p>
            <Trans
              id="{agent} worked out how your plans renew on {date}. Choose a plan for each kind of coverage, then re-enroll: last year's answers are filled in, and you check them, sign and purchase."
              values={{ agent: offer.agent_name, date: longDate(offer.renewal.effective_date, i18n.locale) }}
            />
          </p>
          {problem && (
            <div className="ds-c-alert ds-c-alert--error" role="alert">
              <div className="ds-c-alert__body">
                <p className="ds-c-alert__text">{errorText(problem.error, i18n)}</p>
              </div>
            </div>
          )}
          {KINDS.map((k) => offer.renewal.plans.find((p) => p.kind === k))
            .filter((p): p is PlanRenewalView => p !== undefined)
            .map((p) => (
              <fieldset key={p.kind} className="ds-c-fieldset ef-renewal__kind">
                <legend className="ds-c-label ds-text-heading--lg">{kindTitle(p.kind)}</legend>
                <p className="ef-renewal__now">
                  <span className="ef-renewal__tag">{i18n._('This year')}</span> {describe(p.current)}
                </p>
                {p.reason && <p className="ds-c-alert ds-c-alert--warn ef-renewal__note">{p.reason}</p>}
                {p.aging_off.map((a) => (
                  <p key={a.member} className="ds-c-alert ds-c-alert--warn ef-renewal__note">
                    {member(a.member)} {a.says}
                  </p>
                ))}
                {p.renewal && option(p, p.renewal, i18n._('Renewal'))}
                {!p.renewal && (
                  <p>
                    <Trans id="Your plan does not renew: choose another plan." />
                  </p>
                )}
                {p.alternatives.map((t, i) => option(p, t, i18n._('Other plan {n}', { n: i + 1 })))}
                <label className="ef-renewal__option">
                  <input
                    type="radio"
                    className="ds-c-choice"
                    name={`${formId}-${p.kind}`}
                    checked={choice[p.kind as Kind] === null}
                    onChange={() => setChoice({ ...choice, [p.kind]: null })}
                  />
                  <span>{i18n._('No plan of this kind next year')}</span>
                </label>
              </fieldset>
            ))}
          <button type="submit" className="ds-c-button ds-c-button--solid ds-u-margin-top--2" disabled={busy}>
            {busy ? i18n._('Re-enrolling') : i18n._('Re-enroll with these plans')}
          </button>
          {busy && <span className="ds-c-spinner ds-u-margin-left--2" role="status" aria-valuetext={i18n._('Re-enrolling')} />}
        </form>
      )}
    </div>
  );
}
