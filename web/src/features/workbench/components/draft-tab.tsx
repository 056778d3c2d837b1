import { useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Alert, Button, Spinner, TextField } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { ImpactReport, RulesStatus, SetFile } from '@/types/api';
import { getImpact, publishDraft } from '../api/workbench';
import { draftFiles, parseProblem, short, uploadedPaths } from '../utils/workbench';
import { Failures, Problems } from './source-lines';

interface DraftTabProps {
  status: RulesStatus;
  /** The serving set's files (the draft starts from them). */
  files: SetFile[];
  /** Read the status, history and files again (after a publish). */
  onPublished: () => void;
}

type Outcome =
  | { kind: 'impact'; report: ImpactReport }
  | { kind: 'problems'; problems: { file: string; line: number; message: string }[]; other: string[] }
  | { kind: 'published'; hash: string }
  | { kind: 'error'; message: string };

/**
 * A draft of the rule set: the serving files with edits typed here or a whole folder uploaded; its
 * impact against the serving set (every scenario suite, made-up households and the most recent
 * stored applications walked under both), then Publish.
 */
export function DraftTab({ status, files, onPublished }: DraftTabProps) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [uploaded, setUploaded] = useState<SetFile[] | null>(null);
  const [path, setPath] = useState('');
  const [note, setNote] = useState('');
  /** A git revision of the server's checkout, drafted instead of the files. */
  const [rev, setRev] = useState('');
  const [busy, setBusy] = useState<'impact' | 'publish' | 'upload' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const fileId = useId();
  const folderInput = useRef<HTMLInputElement>(null);

  const base = uploaded ?? files;
  const draft = useMemo(() => draftFiles(base, edits), [base, edits]);
  const current = draft.find((f) => f.path === path) ?? draft[0];
  const changed = useMemo(() => {
    const before = new Map(files.map((f) => [f.path, f.text]));
    const after = new Map(draft.map((f) => [f.path, f.text]));
    const paths = new Set([...before.keys(), ...after.keys()]);
    return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
  }, [files, draft]);

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.fieldErrors?.files) {
      const parsed = e.fieldErrors.files.map((t) => ({ t, p: parseProblem(t) }));
      setOutcome({
        kind: 'problems',
        problems: parsed.flatMap(({ p }) => (p ? [p] : [])),
        other: parsed.filter(({ p }) => !p).map(({ t }) => t),
      });
    } else {
      setOutcome({ kind: 'error', message: e instanceof ApiError && e.message ? e.message : GENERIC_ERROR.id });
    }
  };

  const source = (fromRev: boolean) => (fromRev ? { rev: rev.trim() } : { files: draft });
  const impact = (fromRev = false) => {
    setBusy('impact');
    setOutcome(null);
    getImpact(source(fromRev))
      .then((report) => setOutcome({ kind: 'impact', report }))
      .catch(fail)
      .finally(() => setBusy(null));
  };
  const publish = (fromRev = false) => {
    setBusy('publish');
    setOutcome(null);
    publishDraft(source(fromRev), note)
      .then((p) => {
        setOutcome({ kind: 'published', hash: p.hash });
        setEdits({});
        setUploaded(null);
        setNote('');
        onPublished();
      })
      .catch(fail)
      .finally(() => setBusy(null));
  };

  const onFolder = (event: ChangeEvent<HTMLInputElement>) => {
    const list = [...(event.target.files ?? [])];
    const paths = uploadedPaths(list.map((f) => f.webkitRelativePath || f.name));
    if (paths.size === 0) {
      setOutcome({ kind: 'error', message: 'That folder holds no rules/, forms/ or templates/ files.' });
      return;
    }
    setBusy('upload');
    Promise.all(list.filter((f) => paths.has(f.webkitRelativePath || f.name)).map(async (f) => ({ path: paths.get(f.webkitRelativePath || f.name) ?? f.name, text: await f.text() })))
      .then((read) => {
        setUploaded(read.sort((a, b) => a.path.localeCompare(b.path)));
        setEdits({});
        setOutcome(null);
      })
      .catch(fail)
      .finally(() => setBusy(null));
  };

  return (
    <>
      <p>
        Start from the set serving now (rules <code>{short(status.serving_hash)}</code>): edit files here, or upload a whole
        folder. See what the draft changes before you publish it.
      </p>
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-lg-col--7">
          <label className="ds-c-label" htmlFor={fileId}>
            File
          </label>
          <select id={fileId} className="ds-c-field ef-workbench__wide" value={current?.path ?? ''} onChange={(e) => setPath(e.target.value)}>
            {draft.map((f) => (
              <option key={f.path} value={f.path}>
                {f.path}
                {changed.includes(f.path) ? ' (changed)' : ''}
              </option>
            ))}
          </select>
          {current && (
            <TextField
              name="draft-text"
              label={`Contents of ${current.path}`}
              multiline
              rows={18}
              fieldClassName="ef-workbench__code ef-workbench__wide"
              value={current.text}
              spellCheck={false}
              onChange={(e: { target: { value: string } }) => setEdits((d) => ({ ...d, [current.path]: e.target.value }))}
            />
          )}
        </div>
        <div className="ds-l-col--12 ds-l-lg-col--5">
          <h3 className="ds-text-heading--lg ds-u-margin-top--3">The draft</h3>
          <p>
            {uploaded ? `An uploaded folder of ${uploaded.length} files. ` : ''}
            {changed.length === 0 ? 'No file differs from the serving set.' : `${changed.length} file(s) differ from the serving set:`}
          </p>
          {changed.length > 0 && (
            <ul className="ef-workbench__changed">
              {changed.map((p) => (
                <li key={p}>
                  <code>{p}</code>
                </li>
              ))}
            </ul>
          )}
          <div className="ef-workbench__actions">
            <Button size="small" onClick={() => folderInput.current?.click()} disabled={busy !== null}>
              Upload a folder…
            </Button>
            <Button
              size="small"
              variation="ghost"
              disabled={busy !== null || (changed.length === 0 && !uploaded)}
              onClick={() => {
                setEdits({});
                setUploaded(null);
                setOutcome(null);
              }}
            >
              Discard the draft
            </Button>
          </div>
          <input
            ref={folderInput}
            type="file"
            className="ds-u-visibility--screen-reader"
            aria-label="Upload a folder holding rules/, forms/ and templates/"
            tabIndex={-1}
            multiple
            {...{ webkitdirectory: '' }}
            onChange={onFolder}
          />
          <TextField name="note" label="What changed (kept with the set)" value={note} onChange={(e: { target: { value: string } }) => setNote(e.target.value)} />
          <div className="ef-workbench__actions">
            <Button variation="solid" onClick={() => impact()} disabled={busy !== null}>
              {busy === 'impact' ? 'Checking…' : 'See the impact'}
            </Button>
            <Button onClick={() => publish()} disabled={busy !== null || status.source !== 'database'}>
              {busy === 'publish' ? 'Publishing…' : 'Publish'}
            </Button>
          </div>
          <TextField
            name="rev"
            label="Or a git revision of the server's checkout"
            hint="A commit, tag or branch: its rules/, forms/ and templates/ are the draft."
            value={rev}
            onChange={(e: { target: { value: string } }) => setRev(e.target.value)}
          />
          <div className="ef-workbench__actions">
            <Button size="small" onClick={() => impact(true)} disabled={busy !== null || !rev.trim()}>
              Impact of the revision
            </Button>
            <Button size="small" onClick={() => publish(true)} disabled={busy !== null || !rev.trim() || status.source !== 'database'}>
              Publish the revision
            </Button>
          </div>
          {status.source !== 'database' && (
            <p className="ef-workbench__muted">This instance serves its rules folder: publishing needs --rules-from-database.</p>
          )}
        </div>
      </div>
      <section aria-live="polite" aria-busy={busy !== null} className="ds-u-margin-top--3">
        {busy === 'impact' && <Spinner aria-valuetext="Running the scenarios, walking made-up households and replaying applications" role="status" />}
        {outcome && <DraftOutcome outcome={outcome} files={draft} />}
      </section>
    </>
  );
}

function DraftOutcome({ outcome, files }: { outcome: Outcome; files: SetFile[] }) {
  switch (outcome.kind) {
    case 'error':
      return (
        <Alert variation="error" role="alert">
          {outcome.message}
        </Alert>
      );
    case 'published':
      return (
        <Alert variation="success" role="status" heading="Published">
          Set <code>{short(outcome.hash)}</code> serves on every instance serving from the database.
        </Alert>
      );
    case 'problems':
      return (
        <Alert variation="error" role="alert" heading="The draft does not load: nothing changed" headingLevel="3">
          <Problems problems={outcome.problems} files={files} />
          {outcome.other.map((t) => (
            <p key={t}>{t}</p>
          ))}
        </Alert>
      );
    case 'impact':
      return <ImpactView report={outcome.report} />;
  }
}

/** A count as read in English: 1000 as "1,000". */
const count = (n: number) => n.toLocaleString('en-US');

/**
 * The impact report: scenarios whose result changes; the made-up households' changes grouped by
 * what changed, each with its before and after; and of the stored applications (customers' own)
 * only how many change, by what changes, in the published set's words.
 */
export function ImpactView({ report }: { report: ImpactReport }) {
  const households = new Set(report.household_changes.flatMap((g) => g.changes.map((c) => c.application)));
  const nothing = report.scenarios_changed.length === 0 && report.household_changes.length === 0 && report.application_counts.length === 0;
  const madeUpId = useId();
  const storedId = useId();
  return (
    <div className="ef-workbench__impact">
      <h3 className="ds-text-heading--lg">Impact</h3>
      <p role="status">
        {count(report.scenarios_run)} scenarios run, {count(report.scenarios_changed.length)} changed; {count(report.households_made)} made-up
        households walked, {count(households.size)} changed; {count(report.applications_replayed)} stored applications replayed,{' '}
        {report.applications_changed} changed.
        {nothing ? ' The draft changes nothing.' : ''}
      </p>
      {report.scenarios_changed.length > 0 && (
        <>
          <h4 className="ds-text-heading--md">Scenarios</h4>
          <ul>
            {report.scenarios_changed.map((s) => (
              <li key={`${s.at}-${s.name}`}>
                <code>{s.at}</code> {s.before} → {s.after}: {s.name}
                <Failures failures={s.failures} limit={3} />
              </li>
            ))}
          </ul>
        </>
      )}
      {report.household_changes.length > 0 && (
        <section aria-labelledby={madeUpId}>
          <h4 id={madeUpId} className="ds-text-heading--md">
            Made-up households
          </h4>
          {report.household_changes.map((g) => (
            <details key={g.what} className="ef-workbench__group" open={report.household_changes.length <= 6}>
              <summary>
                {g.what} ({count(g.changes.length)} household{g.changes.length === 1 ? '' : 's'})
              </summary>
              <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
                <thead>
                  <tr>
                    <th scope="col">Household</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {g.changes.slice(0, 50).map((c) => (
                    <tr key={c.application}>
                      <td data-title="Household">{c.application}</td>
                      <td data-title="Before">{c.before}</td>
                      <td data-title="After">{c.after}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {g.changes.length > 50 && <p className="ef-workbench__muted">… and {count(g.changes.length - 50)} more.</p>}
            </details>
          ))}
        </section>
      )}
      {report.application_counts.length > 0 && (
        <section aria-labelledby={storedId}>
          <h4 id={storedId} className="ds-text-heading--md">
            Stored applications
          </h4>
          <p>
            These are customers&apos; applications, so only how many of them change is shown, in the published set&apos;s words; a
            group of fewer than 5 reads &ldquo;fewer than 5&rdquo;.
          </p>
          <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
            <thead>
              <tr>
                <th scope="col">What changes</th>
                <th scope="col">Applications</th>
              </tr>
            </thead>
            <tbody>
              {report.application_counts.map((c) => (
                <tr key={c.what}>
                  <td data-title="What changes">{c.what}</td>
                  <td data-title="Applications">{c.shown}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
