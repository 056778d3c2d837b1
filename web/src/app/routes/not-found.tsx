import { Link } from 'react-router';
import { Trans, useLingui } from '@lingui/react';

export const NOT_FOUND_TEXT = /*i18n*/ { id: 'Whoops! Looks like the page you requested cannot be found' };

export function NotFoundPage() {
  const { i18n } = useLingui();
  return (
    <div className="ef-not-found">
      <h1 className="ds-text-heading--2xl">{i18n._(NOT_FOUND_TEXT)}</h1>
      <p>
        <Link to="/">
          <Trans id="Go to the home page" />
        </Link>
      </p>
    </div>
  );
}
