import type { Flow } from '@/lib/flow';

export interface ProgressItem {
  id: string;
  number: number;
  label: string;
  path: string;
  disabled: boolean;
  current: boolean;
}

export interface ProgressSection {
  /** null for a group without a heading (the single "Get Started" entry). */
  heading: string | null;
  items: ProgressItem[];
}

/**
 * The progress sidebar (spec part 1, 2.3), as the flow gives it for the application: the steps it
 * lists, grouped by their section (consecutive steps of one section are one group), each labelled
 * by its `nav`. An item is disabled when the application has not reached it or it is skipped.
 * Without a flow there is nothing to list.
 */
export function buildProgress(flow: Flow | null, currentStep: string | null): ProgressSection[] {
  const sections: ProgressSection[] = [];
  for (const s of flow?.steps ?? []) {
    if (!s.listed) continue;
    const heading = s.section ?? null;
    let group = sections.at(-1);
    if (!group || group.heading !== heading) {
      group = { heading, items: [] };
      sections.push(group);
    }
    group.items.push({
      id: s.id,
      number: s.number,
      label: s.nav,
      path: s.route,
      disabled: !s.reached || s.skipped,
      current: s.id === currentStep,
    });
  }
  return sections;
}
