import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Spinner, TextField } from '@cmsgov/design-system';
import { ApiError } from '@/lib/api-client';
import type { FileDiff, Proposal, ProposalDetail, ProposalState } from '@/types/api';
import { approveProposal, getProposal, getProposals, rejectProposal, withdrawProposal } from '../api/workbench';
import { diffCounts, diffLines, michiganTime, short, wallTime } from '../utils/workbench';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CoverageTotals } from './coverage-tab';
import { ImpactView } from './draft-tab';
import { refusal, ResultAlert, type Result } from './result-alert';
import { Failures } from './source-lines';

const STATE: Record<ProposalState, { label: string; variation?: 'info' | 'success' | 'alert' }> = {
  proposed: { label: 'Proposed', variation: 'info' },
  approved: { label: 'Approved', variation: 'success' },
  rejected: { label: 'Rejected', variation: 'alert' },
  withdrawn: { label: 'Withdrawn' },
};

/** A proposal's state as a badge: its word, never its colour alone. */
function StateBadge({ state }: { state: ProposalState }) {
  const s = STATE[state] ?? { label: state };
  return <Badge variation={s.variation}>{s.label}</Badge>;
}

export const REASON_REQUIRED = 'Say why it is rejected: the author reads it.';

interface ProposalsTabProps {
  /** The proposal open (`?proposal=`), or null for the list. */
  openId: number | null;
  onOpen: (id: number | null) => void;
  /** After an approval: the serving set, its history and the scheduled sets are read again. */
  onPublished: () => void;
  /**
   * The signed-in person's email when the app knows it: Withdraw is offered on their own
   * proposals only. Unknown (null), it is offered on every open one and the server refuses anyone
   * but the author.
   */
  currentEmail?: string | null;
}

/**
 * The proposals, newest first; one opened shows its note, its diff file by file, its evidence (the
 * suites' result, the coverage, the impact) and, while it is open, Approve (now or from a date and
 * time in Michigan), Reject (with a reason) and Withdraw (its author). Who may approve is the
 * server's to say: a refusal is shown with its reason.
 */
export function ProposalsTab({ openId, onOpen, onPublished, currentEmail = null }: ProposalsTabProps) {
  /** Back from a proposal: the list's heading takes the focus. */
  const [returned, setReturned] = useState(false);
  if (openId !== null) {
    return (
      <ProposalView
        key={openId}
        id={openId}
        currentEmail={currentEmail}
        onBack={() => {
          setReturned(true);
          onOpen(null);
        }}
        onPublished={onPublished}
      />
    );
  }
  return <ProposalList focus={returned} onOpen={onOpen} />;
}

const newestFirst = (list: Proposal[]) => [...list].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);

/** The note's first line, cut to `max` characters. */
const gist = (note: string, max = 140) => {
  const line = note.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

function ProposalList({ focus, onOpen }: { focus: boolean; onOpen: (id: number) => void }) {
  const [list, setList] = useState<Proposal[] | { error: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => {
    let live = true;
    getProposals().then(
      (p) => live && setList(newestFirst(p)),
      (e: unknown) => live && setList({ error: refusal(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  useLayoutEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="ds-text-heading--xl">
        Proposals
      </h2>
      <p>
        A draft is proposed with a note from the Draft and impact tab. Someone other than its author, with the approve permission
        (an analyst given it, or an admin), approves it (at once or from a date and time) or rejects it with a reason.
      </p>
      {!list && <Spinner aria-valuetext="Loading the proposals" role="status" />}
      {list && 'error' in list && (
        <Alert variation="error" role="alert">
          {list.error}
        </Alert>
      )}
      {list && !('error' in list) && (
        <table className="ds-c-table ds-c-table--borderless ef-workbench__table">
          <caption className="ds-c-table__caption">Proposals, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Proposal</th>
              <th scope="col">State</th>
              <th scope="col">Proposed by</th>
              <th scope="col">Decided</th>
              <th scope="col">Reason</th>
              <th scope="col">
                <span className="ds-u-visibility--screen-reader">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.length === 0 && (
              <tr>
                <td colSpan={6}>Nothing is proposed yet.</td>
              </tr>
            )}
            {list.map((p) => (
              <tr key={p.id}>
                <td data-title="Proposal">
                  {p.id}: {gist(p.note)}
                </td>
                <td data-title="State">
                  <StateBadge state={p.state} />
                </td>
                <td data-title="Proposed by">
                  {p.author}, {michiganTime(p.created_at)}
                </td>
                <td data-title="Decided">{p.decided_at ? `${p.decided_by ?? 'someone'}, ${michiganTime(p.decided_at)}` : 'Not yet'}</td>
                <td data-title="Reason">{p.state === 'rejected' ? (p.reason ?? '') : ''}</td>
                <td data-title="Action">
                  <Button size="small" aria-label={`Open proposal ${p.id}: ${gist(p.note, 60)}`} onClick={() => onOpen(p.id)}>
                    Open
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const CHANGE: Record<FileDiff['change'], string> = { added: 'added', removed: 'removed', changed: 'changed' };

/**
 * One file's change: a collapsible section with the unified diff, added and removed lines marked
 * by their `+` and `-` (kept visible) as well as by their shading.
 */
export function FileDiffView({ file, open }: { file: FileDiff; open: boolean }) {
  const lines = diffLines(file.diff);
  const { added, removed } = diffCounts(lines);
  return (
    <details className="ef-workbench__section" open={open}>
      <summary className="ef-workbench__summary">
        <code>{file.path}</code> ({CHANGE[file.change] ?? file.change}: {added} line{added === 1 ? '' : 's'} added, {removed} removed)
      </summary>
      <pre className="ef-workbench__diff" tabIndex={0} role="region" aria-label={`Diff of ${file.path}`}>
        {lines.map((l, i) => (
          <span key={i} className={`ef-workbench__diff-${l.kind}`}>
            {l.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </details>
  );
}

type Asking = 'approve' | 'reject' | 'withdraw';

function ProposalView({
  id,
  currentEmail,
  onBack,
  onPublished,
}: {
  id: number;
  currentEmail: string | null;
  onBack: () => void;
  onPublished: () => void;
}) {
  const [detail, setDetail] = useState<ProposalDetail | { error: string } | null>(null);
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState<Asking | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [fromError, setFromError] = useState<string | undefined>(undefined);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const ids = { note: useId(), files: useId(), scenarios: useId(), coverage: useId(), decide: useId() };

  useEffect(() => {
    let live = true;
    getProposal(id).then(
      (d) => live && setDetail(d),
      (e: unknown) => live && setDetail({ error: refusal(e) }),
    );
    return () => {
      live = false;
    };
  }, [id, version]);
  useLayoutEffect(() => {
    heading.current?.focus();
  }, []);

  const failed = (e: unknown, what: string) => {
    if (e instanceof ApiError && e.fieldErrors?.effective_from?.[0]) setFromError(e.fieldErrors.effective_from[0]);
    if (e instanceof ApiError && e.fieldErrors?.reason?.[0]) setReasonError(e.fieldErrors.reason[0]);
    setResult({ ok: false, heading: what, text: refusal(e) });
  };
  const start = (what: Asking) => {
    setAsking(null);
    setBusy(what);
    setResult(null);
  };
  const done = () => {
    setBusy(null);
    setVersion((v) => v + 1);
  };

  const approve = () => {
    const from = effectiveFrom.trim();
    start('approve');
    approveProposal(id, from || undefined)
      .then((p) => {
        setResult({
          ok: true,
          heading: 'Approved',
          text: from ? (
            <>
              Set <code>{short(p.hash)}</code> takes effect on {michiganTime(p.effective_at)}. Until then it is listed under Scheduled in
              the Serving set tab, where it can be cancelled.
            </>
          ) : (
            <>
              Set <code>{short(p.hash)}</code> is published: it serves now on every instance serving from the database.
            </>
          ),
        });
        setEffectiveFrom('');
        setFromError(undefined);
        onPublished();
      })
      .catch((e: unknown) => failed(e, 'Not approved'))
      .finally(done);
  };
  const reject = () => {
    start('reject');
    rejectProposal(id, reason)
      .then(() => {
        setResult({ ok: true, heading: 'Rejected', text: 'The proposal is rejected; its author reads your reason.' });
        setReason('');
      })
      .catch((e: unknown) => failed(e, 'Not rejected'))
      .finally(done);
  };
  const withdraw = () => {
    start('withdraw');
    withdrawProposal(id)
      .then(() => setResult({ ok: true, heading: 'Withdrawn', text: 'The proposal is withdrawn: nobody can approve it now.' }))
      .catch((e: unknown) => failed(e, 'Not withdrawn'))
      .finally(done);
  };
  const askReject = () => {
    if (!reason.trim()) {
      setReasonError(REASON_REQUIRED);
      reasonField.current?.focus();
      return;
    }
    setReasonError(undefined);
    setAsking('reject');
  };

  const loaded = detail && !('error' in detail) ? detail : null;
  const p = loaded?.proposal ?? null;
  const mine = p !== null && (currentEmail === null || currentEmail.toLowerCase() === p.author.toLowerCase());
  const at = effectiveFrom.trim() ? wallTime(effectiveFrom.trim()) : null;

  return (
    <section aria-labelledby={`proposal-${id}`} aria-busy={busy !== null}>
      <Button size="small" variation="ghost" onClick={onBack}>
        Back to all proposals
      </Button>
      <h2 id={`proposal-${id}`} ref={heading} tabIndex={-1} className="ds-text-heading--xl">
        Proposal {id}
      </h2>
      <ResultAlert result={result} />
      {!detail && <Spinner aria-valuetext={`Loading proposal ${id}`} role="status" />}
      {detail && 'error' in detail && (
        <Alert variation="error" role="alert">
          {detail.error}
        </Alert>
      )}
      {loaded && p && (
        <>
          <dl className="ef-workbench__facts">
            <div>
              <dt>State</dt>
              <dd>
                <StateBadge state={p.state} />
              </dd>
            </div>
            <div>
              <dt>Proposed by</dt>
              <dd>
                {p.author}, {michiganTime(p.created_at)}
              </dd>
            </div>
            <div>
              <dt>Set</dt>
              <dd>
                <code title={p.hash}>{short(p.hash)}</code> over the set then serving, <code title={p.base_hash}>{short(p.base_hash)}</code>
              </dd>
            </div>
            {p.decided_at && (
              <div>
                <dt>Decided by</dt>
                <dd>
                  {p.decided_by ?? 'someone'}, {michiganTime(p.decided_at)}
                </dd>
              </div>
            )}
            {p.state === 'rejected' && (
              <div>
                <dt>Reason</dt>
                <dd className="ef-workbench__note">{p.reason ?? ''}</dd>
              </div>
            )}
          </dl>
          {p.state === 'proposed' && loaded.serving_moved && (
            <Alert variation="warn" heading="The set serving changed since this was proposed" headingLevel="3">
              It cannot be approved: its author proposes it again over the set serving now.
            </Alert>
          )}

          <h3 id={ids.note} className="ds-text-heading--lg">
            What changes and why
          </h3>
          <p className="ef-workbench__note">{p.note}</p>

          <section aria-labelledby={ids.files}>
            <h3 id={ids.files} className="ds-text-heading--lg">
              Changes, file by file ({loaded.files.length})
            </h3>
            {loaded.files.length === 0 && <p>No file differs from the set it was proposed over.</p>}
            {loaded.files.map((f) => (
              <FileDiffView key={f.path} file={f} open={loaded.files.length <= 3} />
            ))}
          </section>

          <Evidence proposal={p} ids={ids} />

          {p.state === 'proposed' && (
            <section aria-labelledby={ids.decide}>
              <h3 id={ids.decide} className="ds-text-heading--lg">
                Decide
              </h3>
              <div className="ds-l-row">
                <div className="ds-l-col--12 ds-l-md-col--6">
                  <h4 className="ds-text-heading--md">Approve</h4>
                  <TextField
                    name="effective_from"
                    type="datetime-local"
                    label="Effective from (Michigan time)"
                    hint="Optional. Left empty, the set is published as soon as you approve it."
                    errorMessage={fromError}
                    value={effectiveFrom}
                    onChange={(e: { target: { value: string } }) => {
                      setEffectiveFrom(e.target.value);
                      setFromError(undefined);
                    }}
                  />
                  <div className="ef-workbench__actions">
                    <Button variation="solid" disabled={busy !== null} onClick={() => setAsking('approve')}>
                      {busy === 'approve' ? 'Approving…' : 'Approve'}
                    </Button>
                  </div>
                </div>
                <div className="ds-l-col--12 ds-l-md-col--6">
                  <h4 className="ds-text-heading--md">Reject</h4>
                  <TextField
                    name="reason"
                    label="Why it is rejected"
                    hint="Required: the author reads it."
                    multiline
                    rows={3}
                    fieldClassName="ef-workbench__wide"
                    inputRef={reasonField}
                    aria-required="true"
                    errorMessage={reasonError}
                    value={reason}
                    onChange={(e: { target: { value: string } }) => {
                      setReason(e.target.value);
                      if (reasonError && e.target.value.trim()) setReasonError(undefined);
                    }}
                  />
                  <div className="ef-workbench__actions">
                    <Button disabled={busy !== null} onClick={askReject}>
                      {busy === 'reject' ? 'Rejecting…' : 'Reject'}
                    </Button>
                  </div>
                </div>
              </div>
              {mine && (
                <>
                  <h4 className="ds-text-heading--md">Withdraw</h4>
                  <p className="ef-workbench__muted">Its author may take it back while it is open.</p>
                  <Button variation="ghost" disabled={busy !== null} onClick={() => setAsking('withdraw')}>
                    {busy === 'withdraw' ? 'Withdrawing…' : 'Withdraw'}
                  </Button>
                </>
              )}
            </section>
          )}

          {asking === 'approve' && (
            <ConfirmDialog
              heading={at ? `Approve proposal ${id} for ${at}?` : `Approve proposal ${id} and publish it now?`}
              confirm={at ? `Approve for ${at}` : 'Approve and publish now'}
              onConfirm={approve}
              onDismiss={() => setAsking(null)}
            >
              {at ? (
                <p>
                  Set <code>{short(p.hash)}</code> takes effect on {at}, Michigan time. Until then the set serving now keeps serving, and
                  the scheduled set can be cancelled in the Serving set tab.
                </p>
              ) : (
                <p>
                  Set <code>{short(p.hash)}</code> is published now: every instance serving from the database serves it at once, and
                  consumers&apos; quotes follow it.
                </p>
              )}
            </ConfirmDialog>
          )}
          {asking === 'reject' && (
            <ConfirmDialog heading={`Reject proposal ${id}?`} confirm="Reject" onConfirm={reject} onDismiss={() => setAsking(null)}>
              <p>Nothing is published. The author reads your reason:</p>
              <p>
                <q>{reason.trim()}</q>
              </p>
            </ConfirmDialog>
          )}
          {asking === 'withdraw' && (
            <ConfirmDialog heading={`Withdraw proposal ${id}?`} confirm="Withdraw" onConfirm={withdraw} onDismiss={() => setAsking(null)}>
              <p>Nothing is published, and nobody can approve it afterwards. To change it, propose the draft again.</p>
            </ConfirmDialog>
          )}
        </>
      )}
    </section>
  );
}

/** What the approver reads: the suites' result, the coverage and the impact, made when it was proposed. */
function Evidence({ proposal, ids }: { proposal: Proposal; ids: { scenarios: string; coverage: string } }) {
  const { scenarios, coverage, impact } = proposal.evidence ?? {};
  const failed = scenarios?.failed ?? [];
  const below = coverage?.below_floor ?? [];
  return (
    <>
      <section aria-labelledby={ids.scenarios}>
        <h3 id={ids.scenarios} className="ds-text-heading--lg">
          Scenarios
        </h3>
        {scenarios ? (
          <p>
            {scenarios.run.toLocaleString('en-US')} scenarios run under the proposed set, {failed.length} failed.
          </p>
        ) : (
          <p>The scenarios' result was not kept.</p>
        )}
        {failed.length > 0 && (
          <Alert variation="error" heading="Scenarios fail under the proposed set: it cannot be approved" headingLevel="4">
            <ul>
              {failed.map((s) => (
                <li key={`${s.at}-${s.name}`}>
                  <code>{s.at}</code> {s.name}
                  <Failures failures={s.failures} />
                </li>
              ))}
            </ul>
          </Alert>
        )}
      </section>
      <section aria-labelledby={ids.coverage}>
        <h3 id={ids.coverage} className="ds-text-heading--lg">
          Coverage
        </h3>
        {coverage ? (
          <CoverageTotals totals={coverage.totals} caption="Coverage of the proposed rules by the scenario suites" />
        ) : (
          <p>The coverage was not kept.</p>
        )}
        {below.length > 0 && (
          <Alert variation="warn" heading="Below the floor of rules/coverage.yaml: it cannot be approved" headingLevel="4">
            <ul>
              {below.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          </Alert>
        )}
      </section>
      {impact ? <ImpactView report={impact} /> : <p>The impact was not kept.</p>}
    </>
  );
}
