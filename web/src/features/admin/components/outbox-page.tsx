import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Spinner } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import { michiganTime } from '@/lib/michigan-time';
import type { OutboxMessage } from '@/types/api';
import { getOutbox } from '../api/get-outbox';
import { linkParts } from '../utils/link-text';
import './admin.css';

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; messages: OutboxMessage[] };


function MessageBody({ body }: { body: string }) {
  if (!body) return <p className="ef-outbox__note">Sent through SMTP: the text is not kept.</p>;
  return (
    <pre className="ef-outbox__body">
      {linkParts(body).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href}>
            {part.href}
          </a>
        ) : (
          part.text
        ),
      )}
    </pre>
  );
}

/**
 * The demo's outbox (admins): the newest e-mails, newest first. Without SMTP, password-reset and
 * invitation e-mails stay here, so their links can be followed to try the flows end to end.
 */
export function OutboxPage() {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  const load = useCallback(() => {
    getOutbox().then(
      (messages) => setLoaded({ state: 'ready', messages }),
      (error: unknown) => setLoaded({ state: 'error', message: error instanceof Error ? error.message : GENERIC_ERROR.id }),
    );
  }, []);

  useEffect(load, [load]);

  return (
    <div className="ef-outbox">
      <h1 className="ds-text-heading--2xl">Outbox</h1>
      <p>
        The e-mails written by this server, newest first. When no SMTP relay is set up they stay here: open a
        password-reset or invitation e-mail and follow its link.
      </p>
      <Button
        variation="ghost"
        size="small"
        onClick={() => {
          setLoaded({ state: 'loading' });
          load();
        }}
      >
        Refresh
      </Button>
      {loaded.state === 'loading' && <Spinner aria-valuetext="Loading" role="status" />}
      {loaded.state === 'error' && (
        <Alert variation="error" role="alert" className="ds-u-margin-top--2">
          {loaded.message}
        </Alert>
      )}
      {loaded.state === 'ready' && loaded.messages.length === 0 && <p>There are no e-mails yet.</p>}
      {loaded.state === 'ready' && loaded.messages.length > 0 && (
        <ul className="ef-outbox__list">
          {loaded.messages.map((m, i) => (
            <li key={m.id}>
              <details open={i === 0} className="ef-outbox__message">
                <summary>
                  <span className="ef-outbox__subject">{m.subject}</span>
                  <span className="ef-outbox__meta">
                    To {m.to_address} · {michiganTime(m.created_at)} · {m.sent_at ? 'sent' : 'not sent'}
                  </span>
                </summary>
                <MessageBody body={m.body} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
