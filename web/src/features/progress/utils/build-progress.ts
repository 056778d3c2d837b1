import { NETWORK_HMO, STEPS, type SkipFlag, type StepId } from '@/lib/steps';

/** What the sidebar needs of the active application. */
export interface ProgressApplication {
  lastStep: number;
  medicalNetworkTypeId: number | null;
  skipMedical: boolean | number;
  skipDental: boolean | number;
  skipVision: boolean | number;
  skipOther: boolean | number;
  skipPcp: boolean | number;
}

export interface ProgressItem {
  id: StepId;
  number: number;
  label: string;
  path: string;
  disabled: boolean;
  current: boolean;
}

export interface ProgressSection {
  /** null for the single "Get Started" entry, which has no group heading. */
  heading: string | null;
  items: ProgressItem[];
}

const SECTIONS: { heading: string | null; steps: StepId[] }[] = [
  { heading: null, steps: ['whyApplying'] },
  { heading: 'Select & Quote Plans', steps: ['census', 'medical', 'dental', 'vision', 'review'] },
  { heading: 'Apply for Coverage', steps: ['subInfo', 'other', 'pcp', 'rap'] },
];

function flagSet(app: ProgressApplication | null, flag: SkipFlag | undefined): boolean {
  return Boolean(app && flag && app[flag]);
}

/**
 * The progress sidebar (spec part 1, 2.3). An item is disabled when its step comes after the
 * application's last step (1 without an application) or its skip flag is set; PCP Selection is
 * listed only for an HMO medical plan.
 */
export function buildProgress(app: ProgressApplication | null, currentStep: StepId | null): ProgressSection[] {
  const lastStep = app ? app.lastStep : 1;
  return SECTIONS.map(({ heading, steps }) => ({
    heading,
    items: STEPS.filter((s) => steps.includes(s.id))
      .filter((s) => s.id !== 'pcp' || app?.medicalNetworkTypeId === NETWORK_HMO)
      .map((s) => ({
        id: s.id,
        number: s.number,
        label: s.navLabel,
        path: s.path,
        disabled: s.number > lastStep || flagSet(app, s.skipFlag),
        current: s.id === currentStep,
      })),
  }));
}
