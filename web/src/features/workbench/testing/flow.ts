// A small flow for the diagram's tests: the flow file, the script its census step's rule calls, and
// the transitions the engine's coverage report lists for it.
import type { FlowNode } from '../utils/workbench';

/** A flow in the form of rules/flows/*.flow.yaml. */
export const FLOW = `steps:
  - id: why
    title: Why?
    next: '"census"'

  - id: census
    title: About You
    # where a save goes
    next: census::next_step(app, ctx, input)

  - id: medical
    title: Medical Plans
    skip_when: app.skip_medical == true
  - id: dental
    title: Dental Plans
    skip_when: "app.skip_dental == true"   # a comment
  - id: review
    title: Review
    previous: |
      if app.skip_dental { "medical" }
      else { "dental" }
  - id: rap
    title: Review and Purchase
`;
export const SCRIPT = `fn age(app) { 1 }

fn next_step(app, ctx, input) {
    if age(app) < 17 { return #{ modal: "child_only" }; }
    if app.enrollment_type == "dental" { return "dental"; }
    "medical"
}

fn other() { "review" }
`;
export const FILES = [
  { path: 'rules/flows/enrollment.flow.yaml', text: FLOW },
  { path: 'rules/scripts/census.rhai', text: SCRIPT },
];
/** The line of a step's `- id:` in FLOW. */
export const at = (id: string) => FLOW.split('\n').findIndex((l) => l.includes(`- id: ${id}`)) + 1;
const edge = (to: string, reached = true, dialog = false) => ({ to, dialog, reached, file: 'rules/flows/enrollment.flow.yaml', line: 0 });
/** The transitions the engine finds in FLOW (coverage items), each with its step's line. */
export const NODES: FlowNode[] = [
  { id: 'why', title: 'Why?', edges: [edge('census')] },
  { id: 'census', title: 'About You', edges: [edge('medical'), edge('dental'), edge('review', false), edge('child_only', false, true)] },
  { id: 'medical', title: 'Medical Plans', edges: [edge('dental'), edge('review', false)] },
  { id: 'dental', title: 'Dental Plans', edges: [edge('review')] },
  { id: 'review', title: 'Review', edges: [edge('rap')] },
  { id: 'rap', title: 'Review and Purchase', edges: [edge('rap')] },
].map((n) => ({ ...n, edges: n.edges.map((e) => ({ ...e, line: at(n.id) })) }));

