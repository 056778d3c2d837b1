import { Alert, Spinner } from '@cmsgov/design-system';
import { useCallback, useState } from 'react';
import { getMessages } from '../api/get-messages';
import { getOldMessages } from '../api/get-old-messages';
import { useMessages } from '../hooks/use-messages';
import { MessageList } from './message-list';
import { DASHBOARD_ERROR } from './texts';

export const RECENT_HEADING = 'Notifications in the past 30 days';
export const NO_NOTIFICATIONS = 'There aren’t any notifications to show';

/**
 * dashboard-recent-notifications (spec part 2, Notifications): the current messages (Dismiss unless
 * sticky), then the past 30 days' old ones without a button. A dismiss reloads the old messages.
 */
export function RecentNotificationsPage() {
  const [oldVersion, setOldVersion] = useState(0);
  const current = useMessages(getMessages, useCallback(() => setOldVersion((v) => v + 1), []));
  const old = useMessages(getOldMessages, undefined, oldVersion);

  const loading = current.messages === null || old.messages === null;
  const loadError = current.loadError || old.loadError;
  const empty = !loading && current.messages?.length === 0 && old.messages?.length === 0;

  return (
    <div className="ef-dashboard ef-recent-notifications">
      <h1 className="ds-text-heading--2xl">{RECENT_HEADING}</h1>
      {(loadError || current.dismissError) && (
        <Alert variation="error" className="ds-u-margin-y--2">
          {DASHBOARD_ERROR}
        </Alert>
      )}
      {loadError ? null : loading ? (
        <Spinner aria-valuetext="Loading notifications" role="status" />
      ) : empty ? (
        <p>{NO_NOTIFICATIONS}</p>
      ) : (
        <>
          {current.messages && current.messages.length > 0 && (
            <section aria-label="Current notifications">
              <MessageList messages={current.messages} onDismiss={(m) => void current.dismiss(m)} headingLevel={3} />
            </section>
          )}
          {old.messages && old.messages.length > 0 && (
            <section aria-labelledby="ef-old-notifications">
              <h2 id="ef-old-notifications" className="ds-text-heading--lg">
                Earlier notifications
              </h2>
              <MessageList messages={old.messages} headingLevel={3} />
            </section>
          )}
        </>
      )}
    </div>
  );
}
