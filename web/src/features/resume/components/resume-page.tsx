import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { errorText } from '@/lib/api-client';
import { resumeApplication } from '../api/resume';
import type { Rechecked } from '../types';

/** The page a renewal's link opens (the server's route for it). */
const RENEWAL_ROUTE = '/renewal';

/**
 * The e-mailed resume link's page (`/resume/token/:token`): the token leaves the address bar at
 * once, and is used only when the person clicks "Continue my application" (a mail scanner that
 * opens links, even running their scripts, does not use it up); then what changed since the
 * application was saved, and Continue to where it goes on. A link that no longer works says why. Drawn with the design system's classes, not its
 * components: those would be split into chunks the landing page then also loads
 * (scripts/bundle-budget.mjs).
 */
export function ResumePage({ onResumed }: { onResumed: () => Promise<unknown> }) {
  const { i18n } = useLingui();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [checked, setChecked] = useState<Rechecked | null>(null);
  /** Why the link does not open an application (said when drawn: `errorText`). */
  const [problem, setProblem] = useState<{ error: unknown } | null>(null);
  /** The link's token, kept from the address the page was opened at (which then forgets it). */
  const [held] = useState(token);
  const [opening, setOpening] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // The token does not stay in the address bar or the history.
    window.history.replaceState(window.history.state, '', '/resume');
  }, []);

  useLayoutEffect(() => {
    if (checked || problem) heading.current?.focus();
  }, [checked, problem]);

  function open() {
    if (opening) return;
    setOpening(true);
    resumeApplication(held).then(
      async (r) => {
        // The app's stores learn of the application this browser now has (the step guards read them).
        await onResumed();
        // A renewal's link: its page shows the choices (nothing was prepared to tell of).
        if (r.route === RENEWAL_ROUTE) {
          void navigate(r.route, { replace: true });
          return;
        }
        setChecked(r);
      },
      (e: unknown) => setProblem({ error: e }),
    );
  }

  return (
    <div className="ds-l-container ds-u-padding-y--4 ef-resume">
      {!checked && !problem && (
        <>
          <h1 className="ds-text-heading--2xl">
            <Trans id="Continue your application" />
          </h1>
          <p>
            <Trans id="This link opens your application in this browser, once. Any other browser that had it open lets go of it." />
          </p>
          <button type="button" className="ds-c-button ds-c-button--solid ds-u-margin-top--1" disabled={opening} onClick={open}>
            {opening ? i18n._('Opening your application') : i18n._('Continue my application')}
          </button>
          {opening && <span className="ds-c-spinner ds-u-margin-left--2" role="status" aria-valuetext={i18n._('Opening your application')} />}
        </>
      )}
      {problem && (
        <>
          <h1 ref={heading} tabIndex={-1} className="ds-text-heading--2xl">
            <Trans id="This link does not open an application" />
          </h1>
          <div className="ds-c-alert ds-c-alert--error" role="alert">
            <div className="ds-c-alert__body">
              <p className="ds-c-alert__text">{errorText(problem.error, i18n)}</p>
            </div>
          </div>
          <p>
            <a href="/">
              <Trans id="Go to the home page" />
            </a>
          </p>
        </>
      )}
      {checked && (
        <>
          <h1 ref={heading} tabIndex={-1} className="ds-text-heading--2xl">
            {checked.from_agent ? i18n._('Your application is ready') : i18n._('Welcome back')}
          </h1>
          {checked.from_agent && (
            <p>
              <Trans
                id="{agent} prepared this application with you. Review it, add the details only you should give (such as Social Security numbers), sign and purchase."
                values={{ agent: checked.from_agent }}
              />
            </p>
          )}
          {checked.changes.length === 0 ? (
            <p>
              {checked.from_agent
                ? i18n._('Nothing has changed since it was prepared.')
                : i18n._('Your application is as you left it: nothing has changed since you saved it.')}
            </p>
          ) : (
            <div className="ds-c-alert ds-c-alert--warn">
              <div className="ds-c-alert__body">
                <h2 className="ds-c-alert__heading">
                  {checked.from_agent ? i18n._('Since it was prepared') : i18n._('Since you saved your application')}
                </h2>
                <ul>
                  {checked.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </div>
            </div>
          )}
          <button type="button" className="ds-c-button ds-c-button--solid ds-u-margin-top--3" onClick={() => void navigate(checked.route)}>
            <Trans id="Continue" />
          </button>
        </>
      )}
    </div>
  );
}
