import type { CoverageKind, RulesReport, Tally } from '@/types/api';
import { missed, percent } from '../utils/workbench';
import { Failures } from './source-lines';

const KINDS: { kind: CoverageKind; label: string }[] = [
  { kind: 'statements', label: 'Statements' },
  { kind: 'branches', label: 'Branches' },
  { kind: 'transitions', label: 'Transitions' },
  { kind: 'modals', label: 'Dialogs' },
  { kind: 'fields', label: 'Fields shown and hidden' },
  { kind: 'carriers', label: 'Carriers quoted' },
  { kind: 'crosswalk', label: 'Crosswalk mappings renewed' },
];

/** Each kind's share of what the scenario suites reach (a kind the totals lack is left out). */
export function CoverageTotals({ totals, caption }: { totals: Partial<Record<CoverageKind, Tally>>; caption: string }) {
  return (
    <table className="ds-c-table ds-c-table--borderless ef-workbench__table ef-workbench__totals">
      <caption className="ds-c-table__caption">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Reached</th>
          <th scope="col">Of</th>
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {KINDS.map(({ kind, label }) => {
          const t = totals[kind];
          if (!t) return null;
          return (
            <tr key={kind} data-kind={kind}>
              <th scope="row">{label}</th>
              <td data-title="Reached">{t.reached}</td>
              <td data-title="Of">{t.total}</td>
              <td data-title="Share">{percent(t)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The scenario suites' results and what of the serving rules they reach, with file:line. */
export function CoverageTab({ report }: { report: RulesReport }) {
  const failed = report.scenarios.filter((s) => !s.passed);
  const notReached = missed(report.coverage);
  return (
    <>
      <CoverageTotals totals={report.coverage.totals} caption="Coverage of the serving rules by the scenario suites" />
      {report.below_floor.length > 0 && (
        <p className="ef-workbench__bad" role="alert">
          Below the floor of rules/coverage.yaml: {report.below_floor.join('; ')}.
        </p>
      )}
      <h3 className="ds-text-heading--lg">Scenarios</h3>
      <p>
        {report.scenarios.length - failed.length} passed, {failed.length} failed.
      </p>
      {failed.length > 0 && (
        <ul>
          {failed.map((s) => (
            <li key={`${s.at}-${s.name}`}>
              <code>{s.at}</code> {s.name}
              <Failures failures={s.failures} />
            </li>
          ))}
        </ul>
      )}
      <h3 className="ds-text-heading--lg">Not reached ({notReached.length})</h3>
      {notReached.length === 0 ? (
        <p>Every statement, branch, transition, dialog, field and carrier is reached.</p>
      ) : (
        <ul className="ef-workbench__missed">
          {notReached.map((i, n) => (
            <li key={`${i.kind}-${i.file}-${i.line}-${n}`}>
              <code>
                {i.file}:{i.line}
              </code>{' '}
              {i.kind}: <code>{i.what}</code>
            </li>
          ))}
        </ul>
      )}
      {report.coverage.page_modals.length > 0 && (
        <p className="ef-workbench__muted">
          Dialogs the page opens by itself (reached by browser tests): {report.coverage.page_modals.map((m) => m.what).join(', ')}.
        </p>
      )}
    </>
  );
}
