import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Spinner, TabPanel, Tabs } from '@cmsgov/design-system';
import { ApiError, GENERIC_ERROR } from '@/lib/api-client';
import type { Publication, RulesReport, RulesStatus, SetFile, StepInfo } from '@/types/api';
import { getPreviewSteps, getPublications, getRulesReport, getRulesStatus, getScheduled, getSetFiles } from '../api/workbench';
import { flowGraph } from '../utils/workbench';
import { CoverageTab } from './coverage-tab';
import { DraftTab } from './draft-tab';
import { FlowTab } from './flow-tab';
import { PreviewTab, type ConsumerRenderers } from './preview-tab';
import { ProposalsTab } from './proposals-tab';
import { ServingTab } from './serving-tab';
import './workbench.css';

const TABS = ['serving', 'draft', 'proposals', 'coverage', 'flow', 'preview'] as const;
type Tab = (typeof TABS)[number];
const isTab = (t: string | null): t is Tab => TABS.includes(t as Tab);
const LABELS: Record<Tab, string> = {
  serving: 'Serving set',
  draft: 'Draft and impact',
  proposals: 'Proposals',
  coverage: 'Scenarios and coverage',
  flow: 'Flow',
  preview: 'Preview',
};

type Serving = { status: RulesStatus; publications: Publication[]; scheduled: Publication[]; files: SetFile[] };

const message = (e: unknown) => (e instanceof ApiError && e.message ? e.message : GENERIC_ERROR.id);

export interface WorkbenchPageProps extends ConsumerRenderers {
  /** The signed-in person's email, when the app knows it (Withdraw on their own proposals only). */
  currentEmail?: string | null;
}

/**
 * The rules workbench (analysts and admins): the set serving now, the sets scheduled and the
 * history, with Cancel and Rollback; a draft's impact and Propose for approval; the proposals with
 * their diff and evidence, to approve, reject or withdraw; the scenario results and coverage, the
 * flow as a diagram, and a preview of any step as consumers see it. `?tab=` keeps the tab in the
 * address, `?proposal=` the proposal open.
 */
export function WorkbenchPage({ currentEmail = null, ...renderers }: WorkbenchPageProps) {
  const [params, setParams] = useSearchParams();
  const tab: Tab = isTab(params.get('tab')) ? (params.get('tab') as Tab) : 'serving';
  const proposal = Number(params.get('proposal'));
  /** Once opened, the draft stays (hidden) while another tab is shown: its edits are kept. */
  const [draftKept, setDraftKept] = useState(tab === 'draft');
  /** Shows another tab (the draft is kept when it is the one left or the one shown). */
  const show = (next: Record<string, string>) => {
    if (tab === 'draft' || next.tab === 'draft') setDraftKept(true);
    setParams(next, { replace: true });
  };
  const openProposal = (id: number | null) => show(id === null ? { tab: 'proposals' } : { tab: 'proposals', proposal: String(id) });
  const [serving, setServing] = useState<Serving | { error: string } | null>(null);
  const [report, setReport] = useState<RulesReport | { error: string } | null>(null);
  const [steps, setSteps] = useState<StepInfo[]>([]);
  /** Bumped after an approval, a cancel or a rollback: the serving set is read again. */
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([getRulesStatus(), getPublications(), getScheduled(), getSetFiles()]).then(
      ([status, publications, scheduled, files]) => {
        if (!live) return;
        setServing({ status, publications, scheduled, files });
        setReport((r) => (r && 'rules' in r && r.rules !== status.serving_hash ? null : r));
      },
      (e: unknown) => live && setServing({ error: message(e) }),
    );
    return () => {
      live = false;
    };
  }, [version]);
  const reload = () => setVersion((v) => v + 1);

  const needsReport = tab === 'coverage' || tab === 'flow';
  useEffect(() => {
    if (!needsReport || report) return;
    let live = true;
    Promise.all([getRulesReport(), getPreviewSteps()]).then(
      ([r, s]) => {
        if (!live) return;
        setReport(r);
        setSteps(s.steps);
      },
      (e: unknown) => live && setReport({ error: message(e) }),
    );
    return () => {
      live = false;
    };
  }, [needsReport, report]);

  const nodes = useMemo(() => (report && 'rules' in report ? flowGraph(steps, report.coverage.items) : []), [report, steps]);


  const panel = (id: Tab) => {
    if (id !== tab && !(id === 'draft' && draftKept && serving && !('error' in serving))) return null;
    if (id === 'preview') return <PreviewTab {...renderers} />;
    if (id === 'proposals') {
      return (
        <ProposalsTab
          openId={Number.isInteger(proposal) && proposal > 0 ? proposal : null}
          onOpen={openProposal}
          onPublished={reload}
          currentEmail={currentEmail}
        />
      );
    }
    if (!serving) return <Spinner aria-valuetext="Loading the rules" role="status" />;
    if ('error' in serving) return <Alert variation="error" role="alert">{serving.error}</Alert>;
    if (id === 'serving') return <ServingTab {...serving} onChanged={reload} />;
    if (id === 'draft') return <DraftTab status={serving.status} files={serving.files} onOpenProposal={openProposal} />;
    if (!report) return <Spinner aria-valuetext="Running the scenario suites" role="status" />;
    if ('error' in report) return <Alert variation="error" role="alert">{report.error}</Alert>;
    if (id === 'coverage') return <CoverageTab report={report} />;
    return <FlowTab nodes={nodes} files={serving.files} />;
  };

  return (
    <div className="ef-workbench ds-u-padding-y--3">
      <h1 className="ds-text-heading--2xl">Rules workbench</h1>
      <Tabs
        ariaLabel="Rules workbench"
        selectedId={tab}
        onChange={(id) => {
          if (isTab(id)) show({ tab: id });
        }}
      >
        {TABS.map((id) => (
          <TabPanel key={id} id={id} tab={LABELS[id]}>
            {panel(id)}
          </TabPanel>
        ))}
      </Tabs>
    </div>
  );
}
