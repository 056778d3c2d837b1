import { useId, useMemo, useState } from 'react';
import { Alert, Button } from '@cmsgov/design-system';
import type { Publication, RulesStatus, SetFile } from '@/types/api';
import { cancelScheduled, rollbackTo } from '../api/workbench';
import { michiganTime as when, servingPublication, short } from '../utils/workbench';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { refusal, ResultAlert, type Result } from './result-alert';
import { Problems } from './source-lines';

interface ServingTabProps {
  status: RulesStatus;
  publications: Publication[];
  /** Approved sets that take effect later, soonest first. */
  scheduled: Publication[];
  files: SetFile[];
  /** Read the status, the history and the scheduled sets again (after a rollback or a cancel). */
  onChanged: () => void;
}

type Asking = { kind: 'rollback' | 'cancel'; publication: Publication };

/**
 * The set serving now, the newest files' problems, the sets scheduled to take effect later (with
 * Cancel) and every publication (with Rollback). Both ask first; the server refuses them to anyone
 * without the approve permission, and its reason is shown.
 */
export function ServingTab({ status, publications, scheduled, files, onChanged }: ServingTabProps) {
  const [busy, setBusy] = useState<number | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const scheduledId = useId();
  const fromDatabase = status.source === 'database';
  const servingId = useMemo(() => servingPublication(publications, scheduled), [publications, scheduled]);
  const later = useMemo(() => new Set(scheduled.map((p) => p.id)), [scheduled]);

  const act = ({ kind, publication: p }: Asking) => {
    setAsking(null);
    setBusy(p.id);
    setResult(null);
    const call =
      kind === 'rollback'
        ? rollbackTo(p.hash).then((r) => `Rolled back: set ${short(r.hash)} serves again on every instance.`)
        : cancelScheduled(p.id).then(() => `Cancelled: set ${short(p.hash)} will not take effect.`);
    call
      .then((text) => {
        setResult({ ok: true, text });
        onChanged();
      })
      .catch((e: unknown) => setResult({ ok: false, heading: kind === 'rollback' ? 'Not rolled back' : 'Not cancelled', text: refusal(e) }))
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
          <dt>Server&apos;s clock</dt>
          <dd>
            {when(status.now)} (Michigan time): sets scheduled for an earlier time serve now
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
      <ResultAlert result={result} />
      {status.problems.length > 0 ? (
        <Alert variation="warn" heading="The newest files have problems: the last good rules keep serving" headingLevel="3">
          <Problems problems={status.problems} files={files} />
        </Alert>
      ) : (
        <p>The newest files load without a problem.</p>
      )}
      <section aria-labelledby={scheduledId}>
        <h2 id={scheduledId} className="ds-text-heading--lg ds-u-margin-top--3">
          Scheduled
        </h2>
        {scheduled.length === 0 ? (
          <p>No approved set waits to take effect.</p>
        ) : (
          <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
            <caption className="ds-c-table__caption">Approved sets that take effect later, soonest first (Michigan time)</caption>
            <thead>
              <tr>
                <th scope="col">Takes effect</th>
                <th scope="col">Set</th>
                <th scope="col">Approved by</th>
                <th scope="col">Proposed by</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span className="ds-u-visibility--screen-reader">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {scheduled.map((p) => (
                <tr key={p.id}>
                  <td data-title="Takes effect">{when(p.effective_at)}</td>
                  <td data-title="Set">
                    <code title={p.hash}>{short(p.hash)}</code>
                  </td>
                  <td data-title="Approved by">{p.approver ?? ''}</td>
                  <td data-title="Proposed by">{p.author}</td>
                  <td data-title="Note">{p.note ?? ''}</td>
                  <td data-title="Action">
                    <Button
                      size="small"
                      disabled={busy !== null}
                      aria-label={`Cancel set ${short(p.hash)} scheduled for ${when(p.effective_at)}`}
                      onClick={() => setAsking({ kind: 'cancel', publication: p })}
                    >
                      {busy === p.id ? 'Cancelling…' : 'Cancel'}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <h2 className="ds-text-heading--lg ds-u-margin-top--3">Publications</h2>
      <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
        <caption className="ds-c-table__caption">Publications, newest first (Michigan time)</caption>
        <thead>
          <tr>
            <th scope="col" id="pub-when">When</th>
            <th scope="col" id="pub-effective">Takes effect</th>
            <th scope="col" id="pub-what">What</th>
            <th scope="col" id="pub-set">Set</th>
            <th scope="col" id="pub-who">By</th>
            <th scope="col" id="pub-approver">Approved by</th>
            <th scope="col" id="pub-note">Note</th>
            <th scope="col" id="pub-act">
              <span className="ds-u-visibility--screen-reader">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {publications.length === 0 && (
            <tr>
              <td colSpan={8}>Nothing is published yet.</td>
            </tr>
          )}
          {publications.map((p) => {
            const serving = p.id === servingId;
            const waiting = later.has(p.id);
            const state = serving ? ' (serving)' : p.cancelled_at ? ' (cancelled)' : waiting ? ' (scheduled)' : '';
            return (
              <tr key={p.id}>
                <td headers="pub-when" data-title="When">
                  {when(p.published_at)}
                </td>
                <td headers="pub-effective" data-title="Takes effect">
                  {p.cancelled_at ? `cancelled ${when(p.cancelled_at)} (was ${when(p.effective_at)})` : when(p.effective_at)}
                </td>
                <td headers="pub-what" data-title="What">
                  {p.action === 'rollback' ? 'Rollback' : 'Publish'}
                  {state}
                </td>
                <td headers="pub-set" data-title="Set">
                  <code title={p.hash}>{short(p.hash)}</code>
                </td>
                <td headers="pub-who" data-title="By">
                  {p.author}
                </td>
                <td headers="pub-approver" data-title="Approved by">
                  {p.approver ?? ''}
                </td>
                <td headers="pub-note" data-title="Note">
                  {p.note ?? ''}
                </td>
                <td headers="pub-act" data-title="Action">
                  {!serving && !waiting && !p.cancelled_at && (
                    <Button
                      size="small"
                      disabled={busy !== null || !fromDatabase}
                      aria-label={`Roll back to set ${short(p.hash)} of ${when(p.published_at)}`}
                      onClick={() => setAsking({ kind: 'rollback', publication: p })}
                    >
                      {busy === p.id ? 'Rolling back…' : 'Rollback'}
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {asking?.kind === 'rollback' && (
        <ConfirmDialog
          heading={`Roll back to set ${short(asking.publication.hash)}?`}
          confirm="Roll back"
          onConfirm={() => act(asking)}
          onDismiss={() => setAsking(null)}
        >
          <p>
            Set <code>{short(asking.publication.hash)}</code>, published {when(asking.publication.published_at)}
            {asking.publication.note ? ` (${asking.publication.note})` : ''}, serves again at once on every instance serving from the
            database, in place of the set serving now.
          </p>
        </ConfirmDialog>
      )}
      {asking?.kind === 'cancel' && (
        <ConfirmDialog
          heading={`Cancel the set scheduled for ${when(asking.publication.effective_at)}?`}
          confirm="Cancel the scheduled set"
          dismiss="Keep it scheduled"
          onConfirm={() => act(asking)}
          onDismiss={() => setAsking(null)}
        >
          <p>
            Set <code>{short(asking.publication.hash)}</code> will not take effect; the set serving then keeps serving. To publish it
            later, it is proposed and approved again.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
