import type { Flow, FlowStep } from '@/lib/flow';

// The flow GET /api/flow answers for the repository's rules/flows/enrollment.flow.yaml, for an
// application in a given state: what the web app's tests route, list and guard with. (The server
// computes `skipped`, `listed`, `reached` and `valid` from the flow's rules; this mirrors them.)

const STEPS = [
  { id: 'whyApplying', number: 1, route: '/whyapplying', title: 'Why Are You Applying?', nav: 'Get Started', section: null, kind: 'form' },
  { id: 'census', number: 2, route: '/census', title: 'About You', nav: 'Basic Info', section: 'Select & Quote Plans', kind: 'form' },
  { id: 'medical', number: 3, route: '/medical', title: 'Medical Plans', nav: 'Medical', section: 'Select & Quote Plans', kind: 'plans', plan: 1 },
  { id: 'dental', number: 4, route: '/dental', title: 'Dental Plans', nav: 'Dental', section: 'Select & Quote Plans', kind: 'plans', plan: 2 },
  { id: 'vision', number: 5, route: '/vision', title: 'Vision Plans', nav: 'Vision', section: 'Select & Quote Plans', kind: 'plans', plan: 3 },
  { id: 'review', number: 6, route: '/review', title: 'Review Selections', nav: 'Review Selections', section: 'Select & Quote Plans', kind: 'review' },
  { id: 'subInfo', number: 7, route: '/subInfo', title: 'Subscriber Information', nav: 'Subscriber Info', section: 'Apply for Coverage', kind: 'form' },
  { id: 'other', number: 8, route: '/other', title: 'Other Questions', nav: 'Other Questions', section: 'Apply for Coverage', kind: 'form' },
  { id: 'pcp', number: 9, route: '/pcp', title: 'PCP Info', nav: 'PCP Selection', section: 'Apply for Coverage', kind: 'form' },
  { id: 'rap', number: 10, route: '/rap', title: 'Review and Purchase', nav: 'Review and Purchase', section: 'Apply for Coverage', kind: 'form' },
] as const;

export interface FlowState {
  /** The application's last step; undefined: no application yet. */
  lastStep?: number;
  submitted?: boolean;
  /** Steps the application's flags skip (`skip_medical`, … in the flow's skip_when rules). */
  skipped?: string[];
  /** An HMO medical plan: PCP Selection is listed and applies. */
  hmo?: boolean;
}

export function testFlow(state: FlowState = {}): Flow {
  const { lastStep, submitted = false, skipped = [], hmo = false } = state;
  const last = Math.max(lastStep ?? 1, 1);
  const isSkipped = (id: string) => skipped.includes(id) || (id === 'pcp' && !hmo);
  const steps: FlowStep[] = STEPS.map((s, i) => {
    const alwaysValid = s.id === 'whyApplying';
    const previous = STEPS.slice(0, i)
      .reverse()
      .find((p) => !isSkipped(p.id));
    return {
      id: s.id,
      number: s.number,
      route: s.route,
      title: s.title,
      nav: s.nav,
      section: s.section,
      kind: s.kind,
      params: 'plan' in s ? { plan_type: s.plan } : {},
      always_valid: alwaysValid,
      listed: s.id !== 'pcp' || hmo,
      skipped: isSkipped(s.id),
      reached: alwaysValid || s.number <= last,
      previous: previous?.id ?? null,
      valid: submitted
        ? s.id === 'rap'
        : alwaysValid || (lastStep !== undefined && s.number <= lastStep && !isSkipped(s.id)),
    };
  });
  return { rules: 'test', steps, submitted_step: 'rap', submitted, last_step: last, save_for_later_from: 3 };
}
