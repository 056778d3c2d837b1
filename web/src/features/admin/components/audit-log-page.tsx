import { useCallback, useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Button, Label, Spinner, TextField } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import type { AuditRow } from '@/types/api';
import { getAuditLog, type AuditFilter } from '../api/security';
import './admin.css';

const AT_IN_MICHIGAN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Detroit',
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** An RFC 3339 instant in Michigan time (where the agency works). */
export function auditTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : AT_IN_MICHIGAN.format(at);
}

/** `application_viewed` → "Application viewed". */
export function actionLabel(action: string): string {
  const words = action.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

type Loaded =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; rows: AuditRow[]; next: number | null; more: boolean };

/**
 * The audit log (admins): who did what to whose data, when, from where, with the request id of the
 * access log. Filtered by action, person (actor or subject, by e-mail address), application and
 * days; fifty rows at a time, newest first, "Show older" for more.
 */
export function AuditLogPage() {
  const [actions, setActions] = useState<string[]>([]);
  const [draft, setDraft] = useState<AuditFilter>({});
  const [filter, setFilter] = useState<AuditFilter>({});
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const formId = useId();

  const load = useCallback((f: AuditFilter, append: AuditRow[] = []): Promise<void> => {
    return getAuditLog(f).then(
      (page) => {
        setActions(page.actions);
        setLoaded({ state: 'ready', rows: [...append, ...page.rows], next: page.next, more: false });
      },
      (e: unknown) => setLoaded({ state: 'error', message: e instanceof Error && e.message ? e.message : GENERIC_ERROR.id }),
    );
  }, []);

  useEffect(() => {
    void load(filter);
  }, [filter, load]);

  const set = (key: keyof AuditFilter) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setLoaded({ state: 'loading' });
    setFilter({ ...draft, person: draft.person?.trim(), application: draft.application?.trim() });
  };

  const older = () => {
    if (loaded.state !== 'ready' || loaded.next === null) return;
    setLoaded({ ...loaded, more: true });
    void load({ ...filter, before: loaded.next }, loaded.rows);
  };

  return (
    <div className="ef-audit">
      <h1 className="ds-text-heading--2xl">Audit log</h1>
      <p>
        Every login, account change, view of an application's details, export, PDF, change made while acting as an agent,
        and refused call. Times are Michigan time.
      </p>
      <form id={formId} onSubmit={apply} className="ef-audit__filters" aria-label="Filter the audit log">
        <div>
          <Label fieldId={`${formId}-action`}>Action</Label>
          <select id={`${formId}-action`} name="action" className="ds-c-field" value={draft.action ?? ''} onChange={set('action')}>
            <option value="">All actions</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </div>
        <TextField name="person" type="email" label="Person's e-mail" value={draft.person ?? ''} onChange={set('person')} />
        <TextField name="application" label="Application id" value={draft.application ?? ''} onChange={set('application')} />
        <TextField name="from" type="date" label="From" value={draft.from ?? ''} onChange={set('from')} />
        <TextField name="until" type="date" label="Until" value={draft.until ?? ''} onChange={set('until')} />
        <Button type="submit" variation="solid">
          Show
        </Button>
      </form>
      <div aria-live="polite">
        {loaded.state === 'loading' && <Spinner aria-valuetext="Loading" role="status" />}
        {loaded.state === 'error' && (
          <Alert variation="error" role="alert" className="ds-u-margin-top--2">
            {loaded.message}
          </Alert>
        )}
        {loaded.state === 'ready' && loaded.rows.length === 0 && <p>No entries match.</p>}
      </div>
      {loaded.state === 'ready' && loaded.rows.length > 0 && (
        <>
          <div className="ef-audit__scroll" tabIndex={0} role="region" aria-label="Audit entries">
            <table className="ds-c-table ds-c-table--compact ef-audit__table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">By</th>
                  <th scope="col">Account</th>
                  <th scope="col">Call</th>
                  <th scope="col">Application</th>
                  <th scope="col">Address</th>
                  <th scope="col">Request id</th>
                </tr>
              </thead>
              <tbody>
                {loaded.rows.map((r) => (
                  <tr key={r.id}>
                    <td>{auditTime(r.at)}</td>
                    <td>{actionLabel(r.action)}</td>
                    <td>{r.actor_name ?? '—'}</td>
                    <td>{r.subject_name ?? '—'}</td>
                    <td>
                      <code>{r.detail ?? ''}</code>
                    </td>
                    <td>
                      <code>{r.application_id ?? ''}</code>
                    </td>
                    <td>{r.address ?? ''}</td>
                    <td>
                      <code>{r.request_id ?? ''}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {loaded.next !== null && (
            <Button className="ds-u-margin-top--2" onClick={older} disabled={loaded.more}>
              Show older
            </Button>
          )}
        </>
      )}
    </div>
  );
}
