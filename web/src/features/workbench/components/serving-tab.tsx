import { useState } from 'react';
import { Alert, Button } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Publication, RulesStatus, SetFile } from '@/types/api';
import { rollbackTo } from '../api/workbench';
import { short } from '../utils/workbench';
import { Problems } from './source-lines';

const AT = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Detroit', dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : AT.format(d);
};

interface ServingTabProps {
  status: RulesStatus;
  publications: Publication[];
  files: SetFile[];
  /** Read the status and the history again (after a rollback). */
  onChanged: () => void;
}

/** The set serving now, the newest files' problems, and every publication with Rollback. */
export function ServingTab({ status, publications, files, onChanged }: ServingTabProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const fromDatabase = status.source === 'database';
  const rollback = (p: Publication) => {
    setBusy(p.hash);
    setMessage(null);
    rollbackTo(p.hash)
      .then((r) => {
        setMessage({ ok: true, text: `Rolled back: set ${short(r.hash)} serves again on every instance.` });
        onChanged();
      })
      .catch((e: unknown) => setMessage({ ok: false, text: e instanceof ApiError && e.message ? e.message : GENERIC_ERROR.id }))
      .finally(() => setBusy(null));
  };
  return (
    <>
      <dl className="ef-workbench__facts">
        <div>
          <dt>Serving</dt>
          <dd>
            rules <code title={status.serving_hash}>{short(status.serving_hash)}</code>
            {status.serving_set ? (
              <>
                {' '}
                from published set <code title={status.serving_set}>{short(status.serving_set)}</code>
              </>
            ) : null}{' '}
            since {when(status.serving_since)}
          </dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            {fromDatabase
              ? 'published rule sets (every instance switches when one is published or rolled back)'
              : 'the rules folder of this instance (publishing needs --rules-from-database)'}
          </dd>
        </div>
      </dl>
      {message && (
        <Alert variation={message.ok ? 'success' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Alert>
      )}
      {status.problems.length > 0 ? (
        <Alert variation="warn" heading="The newest files have problems: the last good rules keep serving" headingLevel="3">
          <Problems problems={status.problems} files={files} />
        </Alert>
      ) : (
        <p>The newest files load without a problem.</p>
      )}
      <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
        <caption className="ds-c-table__caption">Publications, newest first</caption>
        <thead>
          <tr>
            <th scope="col" id="pub-when">When</th>
            <th scope="col" id="pub-what">What</th>
            <th scope="col" id="pub-set">Set</th>
            <th scope="col" id="pub-who">By</th>
            <th scope="col" id="pub-note">Note</th>
            <th scope="col" id="pub-act">
              <span className="ds-u-visibility--screen-reader">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {publications.length === 0 && (
            <tr>
              <td colSpan={6}>Nothing is published yet.</td>
            </tr>
          )}
          {publications.map((p, i) => {
            const serving = i === 0;
            return (
              <tr key={p.id}>
                <td headers="pub-when" data-title="When">
                  {when(p.published_at)}
                </td>
                <td headers="pub-what" data-title="What">
                  {p.action === 'rollback' ? 'Rollback' : 'Publish'}
                  {serving ? ' (serving)' : ''}
                </td>
                <td headers="pub-set" data-title="Set">
                  <code title={p.hash}>{short(p.hash)}</code>
                </td>
                <td headers="pub-who" data-title="By">
                  {p.author}
                </td>
                <td headers="pub-note" data-title="Note">
                  {p.note ?? ''}
                </td>
                <td headers="pub-act" data-title="Action">
                  {!serving && (
                    <Button
                      size="small"
                      disabled={busy !== null || !fromDatabase}
                      aria-label={`Roll back to set ${short(p.hash)} of ${when(p.published_at)}`}
                      onClick={() => rollback(p)}
                    >
                      {busy === p.hash ? 'Rolling back…' : 'Rollback'}
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
