import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Trans } from '@lingui/react';

/** Last-resort page when a route fails to load or render. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main id="main" className="ds-l-container ds-u-padding-y--4">
      <h1 className="ds-text-heading--2xl">
        <Trans id="Something went wrong!" />
      </h1>
      <p>
        <Trans id="Please reload the page. If it continues, contact your agent." />
      </p>
      {detail && <p className="ds-text-body--sm">{detail}</p>}
      <p>
        <a href="/">
          <Trans id="Go to the home page" />
        </a>
      </p>
    </main>
  );
}
