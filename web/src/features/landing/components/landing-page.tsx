import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Button, Spinner } from '@cmsgov/design-system';
import { landingState } from '../utils/landing-state';

export const RESTART_ERROR = /*i18n*/ { id: 'An error occurred, please try again. If it continues, contact your agent.' };

interface LandingPageProps {
  site: { product_name: string; agent: unknown; supported: boolean } | null;
  siteError: string | null;
  application: { lastStep: number } | null;
  /** Where Get a Quote goes (the flow's first step) and Continue Quote (the last step reached). */
  routes: { start: string; resume: string };
  /** The Presented by agent card, drawn by the site feature. */
  agentCard: ReactNode;
  onRestart: () => Promise<void>;
}

export function LandingPage({ site, siteError, application, routes, agentCard, onRestart }: LandingPageProps) {
  const { i18n } = useLingui();
  const [restarting, setRestarting] = useState(false);
  const [restartError, setRestartError] = useState<typeof RESTART_ERROR | null>(null);
  const state = landingState(site, siteError);
  const product = site?.product_name || 'Enrollflow';

  if (state === 'loading') {
    return (
      <div className="ef-landing">
        <h1 className="ds-text-heading--3xl">
          <Trans id="Welcome" />
        </h1>
        <Spinner aria-valuetext={i18n._('Loading')} role="status" />
      </div>
    );
  }

  if (state === 'error') {
    return (
      <div className="ef-landing">
        <h1 className="ds-text-heading--3xl">
          <Trans id="We can't load this site right now" />
        </h1>
        <Alert variation="error" role="alert">
          <Trans id="{siteError} Please try again later, or contact your agent." values={{ siteError }} />
        </Alert>
      </div>
    );
  }

  if (state === 'unknown') {
    return (
      <div className="ef-landing">
        <h1 className="ds-text-heading--3xl">
          <Trans id="We couldn't find this agent" />
        </h1>
        <p className="ds-text-body--lg ef-landing__message">
          <Trans id="The web address you used did not match one of our agents. Please check the spelling of the address, and contact your agent if you need help." />
        </p>
      </div>
    );
  }

  if (state === 'unsupported') {
    return (
      <div className="ef-landing">
        <h1 className="ds-text-heading--2xl ef-landing__message">
          <Trans id="We're sorry – this agent does not support {product} at this time." values={{ product }} />
        </h1>
      </div>
    );
  }

  const restart = () => {
    setRestarting(true);
    setRestartError(null);
    onRestart().catch(() => {
      setRestartError(RESTART_ERROR);
      setRestarting(false);
    });
  };

  return (
    <div className="ef-landing ef-landing--supported">
      <div className="ef-landing__intro">
        <h1 className="ds-text-heading--3xl">
          <Trans id="Individual plans tailored to your life" />
        </h1>
        <p className="ds-text-body--lg">
          <Trans id="Compare medical, dental and vision coverage for you and your family, see your price in minutes, and apply online with the help of your licensed agent." />
        </p>
        {restartError && (
          <Alert variation="error" role="alert" className="ds-u-margin-bottom--2">
            {i18n._(restartError)}
          </Alert>
        )}
        <div className="ef-landing__actions">
          {application ? (
            <>
              <Link className="ds-c-button ds-c-button--solid ds-c-button--big" to={routes.resume}>
                <Trans id="Continue Quote" />
              </Link>
              <Button variation="ghost" size="big" onClick={restart} disabled={restarting}>
                <Trans id="Restart Quote" />
              </Button>
            </>
          ) : (
            <Link className="ds-c-button ds-c-button--solid ds-c-button--big" to={routes.start}>
              <Trans id="Get a Quote" />
            </Link>
          )}
        </div>
        <p className="ds-text-body--sm ef-landing__fine-print">
          <Trans id="Coverage is available to Michigan residents: you must live in Michigan when your coverage starts. If you are eligible for Medicare, you cannot buy individual medical coverage here, but you can still get dental or vision coverage only." />
        </p>
      </div>
      <div className="ef-landing__agent">{agentCard}</div>
    </div>
  );
}
