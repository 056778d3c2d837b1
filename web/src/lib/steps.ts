// The ten enrollment steps of the route table (spec part 1, 2.1 and 2.3).

export type StepId =
  | 'whyApplying'
  | 'census'
  | 'medical'
  | 'dental'
  | 'vision'
  | 'review'
  | 'subInfo'
  | 'other'
  | 'pcp'
  | 'rap';

export type SkipFlag = 'skipMedical' | 'skipDental' | 'skipVision' | 'skipOther' | 'skipPcp';

export interface Step {
  id: StepId;
  number: number;
  path: string;
  /** Route title: the page heading and the browser title. */
  title: string;
  /** Label in the progress sidebar. */
  navLabel: string;
  skipFlag?: SkipFlag;
}

export const STEPS: readonly Step[] = [
  { id: 'whyApplying', number: 1, path: '/whyapplying', title: 'Why Are You Applying?', navLabel: 'Get Started' },
  { id: 'census', number: 2, path: '/census', title: 'About You', navLabel: 'Basic Info' },
  { id: 'medical', number: 3, path: '/medical', title: 'Medical Plans', navLabel: 'Medical', skipFlag: 'skipMedical' },
  { id: 'dental', number: 4, path: '/dental', title: 'Dental Plans', navLabel: 'Dental', skipFlag: 'skipDental' },
  { id: 'vision', number: 5, path: '/vision', title: 'Vision Plans', navLabel: 'Vision', skipFlag: 'skipVision' },
  { id: 'review', number: 6, path: '/review', title: 'Review Selections', navLabel: 'Review Selections' },
  { id: 'subInfo', number: 7, path: '/subInfo', title: 'Subscriber Information', navLabel: 'Subscriber Info' },
  { id: 'other', number: 8, path: '/other', title: 'Other Questions', navLabel: 'Other Questions', skipFlag: 'skipOther' },
  { id: 'pcp', number: 9, path: '/pcp', title: 'PCP Info', navLabel: 'PCP Selection', skipFlag: 'skipPcp' },
  { id: 'rap', number: 10, path: '/rap', title: 'Review and Purchase', navLabel: 'Review and Purchase' },
];

export function stepById(id: StepId): Step {
  const step = STEPS.find((s) => s.id === id);
  if (!step) throw new Error(`unknown step \`${id}\``);
  return step;
}

/** The route of a step number; numbers outside 1..10 fall back to the first step. */
export function stepPathByNumber(number: number): string {
  return (STEPS.find((s) => s.number === number) ?? STEPS[0]!).path;
}

/** Network type ids (spec part 1, 9): the PCP step exists only for HMO. */
export const NETWORK_HMO = 2;
