import { Link } from 'react-router';

export const NOT_FOUND_TEXT = 'Whoops! Looks like the page you requested cannot be found';

export function NotFoundPage() {
  return (
    <div className="ef-not-found">
      <h1 className="ds-text-heading--2xl">{NOT_FOUND_TEXT}</h1>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </div>
  );
}
