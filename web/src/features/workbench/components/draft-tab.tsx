import { lazy, Suspense, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Alert, Button, Spinner, TextField } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { ImpactReport, RulesStatus, SetFile } from '@/types/api';
import { getImpact, proposeDraft } from '../api/workbench';
import type { FileProblem } from '../utils/editor';
import { changeText, groupTotals, moneyChange, planGroup, planName, planNames as catalogPlanNames, totalsLine } from '../utils/impact';
import { draftFiles, parseProblem, short, uploadedPaths, type ParsedProblem } from '../utils/workbench';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PlainEditor } from './plain-editor';
import { Failures, Problems } from './source-lines';

/**
 * The code editor (CodeMirror) is loaded when the draft is first shown, not with the workbench; the
 * file stays a plain text field until it arrives, and if it cannot be loaded.
 */
const CodeEditor = lazy(() => import('./code-editor').catch(() => ({ default: PlainEditor })));

const NO_PROBLEMS: FileProblem[] = [];

interface DraftTabProps {
  status: RulesStatus;
  /** The serving set's files (the draft starts from them). */
  files: SetFile[];
  /** Open a proposal in the Proposals tab. */
  onOpenProposal: (id: number) => void;
}

type Outcome =
  /** `names`: the plans' names, the serving set's words (a plan only the draft has, by the draft's). */
  | { kind: 'impact'; report: ImpactReport; names: Map<string, string> }
  | { kind: 'problems'; problems: ParsedProblem[]; other: string[] }
  | { kind: 'proposed'; id: number; hash: string }
  | { kind: 'error'; message: string };

/** Proposing is refused without it (the approver reads it). */
export const NOTE_REQUIRED = 'Say what changes and why: the approver reads it.';

/**
 * A draft of the rule set: the serving files with edits typed here or a whole folder uploaded; its
 * impact against the serving set (every scenario suite, made-up households and the most recent
 * stored applications walked under both), then Propose for approval: with a note saying what
 * changes and why, someone else with the approve permission publishes it (the Proposals tab).
 */
export function DraftTab({ status, files, onOpenProposal }: DraftTabProps) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [uploaded, setUploaded] = useState<SetFile[] | null>(null);
  const [path, setPath] = useState('');
  const [note, setNote] = useState('');
  /** A git revision of the server's checkout, drafted instead of the files. */
  const [rev, setRev] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<'impact' | 'propose' | 'upload' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** The proposal asked about (the files, or the revision), before it is sent. */
  const [asking, setAsking] = useState<'files' | 'rev' | null>(null);
  const fileId = useId();
  const folderInput = useRef<HTMLInputElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  /** A proposal's outcome takes the focus (the impact's stays where it is). */
  const focusOutcome = useRef(false);
  useLayoutEffect(() => {
    if (!outcome || !focusOutcome.current) return;
    focusOutcome.current = false;
    outcomeRef.current?.focus();
  }, [outcome]);

  const base = uploaded ?? files;
  const draft = useMemo(() => draftFiles(base, edits), [base, edits]);
  const current = draft.find((f) => f.path === path) ?? draft[0];
  const currentPath = current?.path ?? '';
  /** The refusal's problems by file: shown in the editor on their lines, counted in the file list. */
  const problemsByFile = useMemo(() => {
    const out = new Map<string, FileProblem[]>();
    if (outcome?.kind !== 'problems') return out;
    for (const { file, ...p } of outcome.problems) out.set(file, [...(out.get(file) ?? []), p]);
    return out;
  }, [outcome]);
  const fileProblems = problemsByFile.get(currentPath) ?? NO_PROBLEMS;
  /** A problem opened from the refusal's list: its file, then its line in the editor. */
  const [reveal, setReveal] = useState<{ line: number } | null>(null);
  const editorRef = useRef<HTMLDivElement>(null);
  const openProblem = (file: string, line: number) => {
    setPath(file);
    setReveal({ line });
    editorRef.current?.scrollIntoView?.({ block: 'start' });
  };
  const changed = useMemo(() => {
    const before = new Map(files.map((f) => [f.path, f.text]));
    const after = new Map(draft.map((f) => [f.path, f.text]));
    const paths = new Set([...before.keys(), ...after.keys()]);
    return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
  }, [files, draft]);

  /** An edit of the file open (the path read when the edit is made: the editor calls it later). */
  const openPath = useRef(currentPath);
  useLayoutEffect(() => {
    openPath.current = currentPath;
  }, [currentPath]);
  const setText = useCallback((text: string) => setEdits((d) => ({ ...d, [openPath.current]: text })), []);

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.fieldErrors?.note?.[0]) setNoteError(e.fieldErrors.note[0]);
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
    const drafted = draft;
    getImpact(source(fromRev))
      .then((report) => {
        const names = new Map([...catalogPlanNames(fromRev ? [] : drafted), ...catalogPlanNames(files)]);
        setOutcome({ kind: 'impact', report, names });
      })
      .catch(fail)
      .finally(() => setBusy(null));
  };
  /** Propose…: the note first (said at the field, which takes the focus), then a confirmation. */
  const ask = (what: 'files' | 'rev') => {
    if (!note.trim()) {
      setNoteError(NOTE_REQUIRED);
      noteField.current?.focus();
      return;
    }
    setNoteError(undefined);
    setAsking(what);
  };
  const propose = (fromRev: boolean) => {
    setAsking(null);
    setBusy('propose');
    setOutcome(null);
    focusOutcome.current = true;
    proposeDraft(source(fromRev), note)
      .then((d) => {
        setOutcome({ kind: 'proposed', id: d.proposal.id, hash: d.proposal.hash });
        setEdits({});
        setUploaded(null);
        setNote('');
        if (fromRev) setRev('');
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
        folder. See what the draft changes, then propose it: another analyst with the approve permission, or an admin,
        publishes it.
      </p>
      <div className="ds-l-row">
        <div className="ds-l-col--12 ds-l-lg-col--7">
          <label className="ds-c-label" htmlFor={fileId}>
            File
          </label>
          <select id={fileId} className="ds-c-field ef-workbench__wide" value={current?.path ?? ''} onChange={(e) => setPath(e.target.value)}>
            {draft.map((f) => {
              const n = problemsByFile.get(f.path)?.length ?? 0;
              return (
                <option key={f.path} value={f.path}>
                  {f.path}
                  {changed.includes(f.path) ? ' (changed)' : ''}
                  {n > 0 ? ` (${n} problem${n === 1 ? '' : 's'})` : ''}
                </option>
              );
            })}
          </select>
          {current && (
            <div ref={editorRef}>
              <Suspense fallback={<PlainEditor path={current.path} value={current.text} onChange={setText} problems={fileProblems} />}>
                <CodeEditor path={current.path} value={current.text} onChange={setText} problems={fileProblems} reveal={reveal} />
              </Suspense>
            </div>
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
          <TextField
            name="note"
            label="What changes and why"
            hint="Required to propose: the approver reads it, and it is kept with the set."
            multiline
            rows={3}
            fieldClassName="ef-workbench__wide"
            inputRef={noteField}
            aria-required="true"
            errorMessage={noteError}
            value={note}
            onChange={(e: { target: { value: string } }) => {
              setNote(e.target.value);
              if (noteError && e.target.value.trim()) setNoteError(undefined);
            }}
          />
          <div className="ef-workbench__actions">
            <Button variation="solid" onClick={() => impact()} disabled={busy !== null}>
              {busy === 'impact' ? 'Checking…' : 'See the impact'}
            </Button>
            <Button onClick={() => ask('files')} disabled={busy !== null || status.source !== 'database'}>
              {busy === 'propose' ? 'Proposing…' : 'Propose for approval'}
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
            <Button size="small" onClick={() => ask('rev')} disabled={busy !== null || !rev.trim() || status.source !== 'database'}>
              Propose the revision
            </Button>
          </div>
          {status.source !== 'database' && (
            <p className="ef-workbench__muted">This instance serves its rules folder: proposing and publishing need --rules-from-database.</p>
          )}
        </div>
      </div>
      <section aria-live="polite" aria-busy={busy !== null} className="ds-u-margin-top--3">
        {busy === 'impact' && <Spinner aria-valuetext="Running the scenarios, walking made-up households and replaying applications" role="status" />}
        {busy === 'propose' && <Spinner aria-valuetext="Proposing: running the scenarios and the impact for the approver" role="status" />}
        {outcome && (
          <div ref={outcomeRef} tabIndex={-1}>
            <DraftOutcome outcome={outcome} files={draft} onOpenProposal={onOpenProposal} onOpenProblem={openProblem} />
          </div>
        )}
      </section>
      {asking && (
        <ConfirmDialog
          heading="Propose this draft for approval?"
          confirm="Propose"
          onConfirm={() => propose(asking === 'rev')}
          onDismiss={() => setAsking(null)}
        >
          <p>
            {asking === 'rev' ? (
              <>
                The files of revision <code>{rev.trim()}</code>
              </>
            ) : (
              `The draft (${changed.length} changed file${changed.length === 1 ? '' : 's'})`
            )}{' '}
            is kept on the server with your note, its diff against the set serving now and its evidence: the scenarios, the
            coverage and the impact, run again now. Nothing is published until another analyst with the approve permission, or
            an admin, approves it.
          </p>
          <p>
            Your note: <q>{note.trim()}</q>
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

interface DraftOutcomeProps {
  outcome: Outcome;
  files: SetFile[];
  onOpenProposal: (id: number) => void;
  /** Open a problem's file in the editor at its line. */
  onOpenProblem: (file: string, line: number) => void;
}

function DraftOutcome({ outcome, files, onOpenProposal, onOpenProblem }: DraftOutcomeProps) {
  switch (outcome.kind) {
    case 'error':
      return (
        <Alert variation="error" role="alert">
          {outcome.message}
        </Alert>
      );
    case 'proposed':
      return (
        <Alert variation="success" role="status" heading="Proposed" headingLevel="3">
          <p>
            Proposed: another analyst with the approve permission, or an admin, approves it. (Proposal {outcome.id}, set{' '}
            <code>{short(outcome.hash)}</code>.)
          </p>
          <Button size="small" onClick={() => onOpenProposal(outcome.id)}>
            Open proposal {outcome.id} in the Proposals tab
          </Button>
        </Alert>
      );
    case 'problems':
      return (
        <Alert variation="error" role="alert" heading="The draft does not load: nothing changed" headingLevel="3">
          <Problems problems={outcome.problems} files={files} onOpen={onOpenProblem} />
          {outcome.other.map((t) => (
            <p key={t}>{t}</p>
          ))}
        </Alert>
      );
    case 'impact':
      return <ImpactView report={outcome.report} planNames={outcome.names} />;
  }
}

/** A count as read in English: 1000 as "1,000". */
const count = (n: number) => n.toLocaleString('en-US');

const NO_NAMES = new Map<string, string>();

/** How many rows of a group are shown (its totals count them all). */
const ROWS = 50;

/**
 * What changed for the made-up households in one respect: a plan's premium reads with the plan's
 * name, each household's change in dollars and percent, and the group's totals (households
 * affected, the average change).
 */
function HouseholdGroup({ group: g, planNames, open }: { group: ImpactReport['household_changes'][number]; planNames: Map<string, string>; open: boolean }) {
  const plan = planGroup(g.what);
  const money = g.changes.some((c) => moneyChange(c.before, c.after) !== null);
  const totals = groupTotals(g.changes);
  const n = `${count(g.changes.length)} household${g.changes.length === 1 ? '' : 's'}`;
  return (
    <details className="ef-workbench__group" open={open}>
      <summary>
        {plan ? (
          <>
            {planName(plan, planNames)}: {plan.step} {plan.what === 'premium' ? 'monthly premium' : plan.what}{' '}
            <span className="ef-workbench__what">
              ({g.what}; {n})
            </span>
          </>
        ) : (
          `${g.what} (${n})`
        )}
      </summary>
      <p className="ef-workbench__group-totals">{totalsLine(totals)}.</p>
      <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
        <thead>
          <tr>
            <th scope="col">Household</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
            {money && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {g.changes.slice(0, ROWS).map((c) => {
            const change = moneyChange(c.before, c.after);
            return (
              <tr key={c.application}>
                <td data-title="Household">{c.application}</td>
                <td data-title="Before">{c.before}</td>
                <td data-title="After">{c.after}</td>
                {money && (
                  <td data-title="Change">{change ? changeText(change) : 'no amount to compare'}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {g.changes.length > ROWS && <p className="ef-workbench__muted">… and {count(g.changes.length - ROWS)} more.</p>}
    </details>
  );
}

/**
 * The impact report: scenarios whose result changes; the made-up households' changes grouped by
 * what changed, each with its before and after (a plan's premium with the plan's name, the change
 * in dollars and percent, and the group's totals); and of the stored applications (customers' own)
 * only how many change, by what changes, in the published set's words.
 */
export function ImpactView({ report, planNames = NO_NAMES }: { report: ImpactReport; planNames?: Map<string, string> }) {
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
            <HouseholdGroup key={g.what} group={g} planNames={planNames} open={report.household_changes.length <= 6} />
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
