import { Alert, Badge, Spinner } from '@cmsgov/design-system';
import { useId } from 'react';
import { Link } from 'react-router';
import { getMessages } from '../api/get-messages';
import { useMessages } from '../hooks/use-messages';
import { DASHBOARD_ERROR } from './texts';
import { MessageList } from './message-list';

export const NO_NEW_NOTIFICATIONS = 'You don’t have any new notifications';

/**
 * Dashboard home's Notifications card (spec part 2, Notifications): count badge (grey at 0, red
 * otherwise), 'View All Recent Notifications', the current messages with Dismiss unless sticky.
 */
export function NotificationsCard() {
  const headingId = useId();
  const { messages, loadError, dismissError, dismiss } = useMessages(getMessages);
  const count = messages?.length ?? 0;
  return (
    <section className="ds-c-card ef-dash-card" aria-labelledby={headingId}>
      <div className="ef-dash-card__header">
        <h2 id={headingId} className="ds-text-heading--xl ds-u-margin-y--0">
          Notifications{' '}
          <Badge
            variation={count > 0 ? 'alert' : undefined}
            className={count > 0 ? 'ef-count ef-count--some' : 'ef-count ef-count--none'}
            hideScreenReaderText
            data-testid="notifications-count"
          >
            {count}
          </Badge>
          <span className="ds-u-visibility--screen-reader"> new</span>
        </h2>
        <Link to="/dashboard/recentNotifications">View All Recent Notifications</Link>
      </div>
      {dismissError && (
        <Alert variation="error" className="ds-u-margin-y--2">
          {DASHBOARD_ERROR}
        </Alert>
      )}
      {loadError ? (
        <Alert variation="error" className="ds-u-margin-y--2">
          {DASHBOARD_ERROR}
        </Alert>
      ) : messages === null ? (
        <Spinner aria-valuetext="Loading notifications" role="status" />
      ) : messages.length === 0 ? (
        <p>{NO_NEW_NOTIFICATIONS}</p>
      ) : (
        <MessageList messages={messages} onDismiss={(m) => void dismiss(m)} />
      )}
    </section>
  );
}
