// The flow diagram: each transition's condition read from the flow file, the graph handed to ELK's
// layered layout (text sizes estimated), and ELK's answer read back as boxes, lines and labels.
// ELK itself is loaded on demand (./elk.ts); only its types are named here.
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { SetFile } from '@/types/api';
import { yamlScalar, type FlowNode } from './workbench';

/** A step's own rules in the flow file. */
export interface StepRules {
  /** Where a save goes (`next:`); absent: the next step not skipped. */
  next?: string;
  /** When the step does not apply (`skip_when:`). */
  skipWhen?: string;
}

/**
 * `next` and `skip_when` of the step whose `- id:` is on `line` (from 1) of the flow file: the
 * step's keys are the lines indented as its `id:`, up to the next step. A block scalar (`|`, `>`)
 * is read as one line.
 */
export function stepRules(text: string, line: number): StepRules {
  const lines = text.split('\n');
  const first = lines[line - 1] ?? '';
  const m = /^(\s*-\s+)id:/.exec(first);
  if (!m) return {};
  const indent = (m[1] ?? '').length;
  const out: StepRules = {};
  for (let i = line; i < lines.length; i += 1) {
    const l = lines[i] ?? '';
    if (!l.trim() || l.trim().startsWith('#')) continue;
    const at = l.length - l.trimStart().length;
    if (at < indent) break;
    if (at > indent) continue;
    const kv = /^\s*([\w-]+):\s?(.*)$/.exec(l);
    if (!kv) continue;
    let value = kv[2] ?? '';
    if (/^[|>][-+]?\s*(#.*)?$/.test(value.trim())) {
      const block: string[] = [];
      while (i + 1 < lines.length && (!(lines[i + 1] ?? '').trim() || (lines[i + 1] ?? '').length - (lines[i + 1] ?? '').trimStart().length > indent)) {
        i += 1;
        block.push((lines[i] ?? '').trim());
      }
      value = block.filter(Boolean).join(' ');
    } else value = yamlScalar(value);
    if (kv[1] === 'next') out.next = value;
    if (kv[1] === 'skip_when') out.skipWhen = value;
  }
  return out;
}

/** The string literals of a script function's body (`fn name(…) { … }` up to its closing line). */
function functionStrings(text: string, name: string): string[] {
  const start = text.search(new RegExp(`^\\s*(?:private\\s+)?fn\\s+${name}\\s*\\(`, 'm'));
  if (start < 0) return [];
  const end = text.indexOf('\n}', start);
  const body = text.slice(start, end < 0 ? text.length : end);
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
}

/**
 * The names a `next` rule can answer: its own string literals and those of the script functions
 * it calls (`census::next_step(…)`: `fn next_step` in rules/scripts/census.rhai).
 */
export function namedByRule(rule: string, files: SetFile[]): Set<string> {
  const names = new Set([...rule.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? ''));
  for (const [, module, fn] of rule.matchAll(/(\w+)::(\w+)\s*\(/g)) {
    const script = files.find((f) => f.path === `rules/scripts/${module}.rhai`);
    if (script && fn) for (const n of functionStrings(script.text, fn)) names.add(n);
  }
  return names;
}

/** A transition to draw and list: its condition in the flow's own words. */
export interface FlowEdge {
  id: string;
  from: string;
  /** A step id, or a dialog's id when `dialog`. */
  to: string;
  dialog: boolean;
  reached: boolean;
  /** When it is taken, whole: the step's `next` rule and what it answers, or Continue; the steps skipped on the way with their `skip_when`. */
  condition: string;
  /** The same, short, for the diagram (the steps' own rules are in their boxes). */
  label: string;
  /** Where the step is written (`rules/flows/enrollment.flow.yaml:58`). */
  where: string;
}

/**
 * Each step's `next` and `skip_when`, read from the flow file at the line its transitions name
 * (every transition carries the file and line of the step it leaves).
 */
export function flowRules(nodes: FlowNode[], files: SetFile[]): Map<string, StepRules> {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const out = new Map<string, StepRules>();
  for (const n of nodes) {
    const e = n.edges[0];
    const text = e ? texts.get(e.file) : undefined;
    out.set(n.id, text !== undefined && e ? stepRules(text, e.line) : {});
  }
  return out;
}

/** "a", "a and b", "a, b and c". */
const listed = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/**
 * Every transition of the flow with its condition: a dialog is asked by the step's `next` rule; a
 * step is reached by what the `next` rule answers (its strings and those of the script function
 * it calls) or, without a rule, by Continue; the steps skipped on the way are named with their
 * `skip_when`. Without the flow file, the condition is where the step is written.
 */
export function flowEdges(nodes: FlowNode[], files: SetFile[]): FlowEdge[] {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const rules = flowRules(nodes, files);
  const texts = new Set(files.map((f) => f.path));
  return nodes.flatMap((n, i) => {
    const r = rules.get(n.id) ?? {};
    const named = r.next !== undefined ? namedByRule(r.next, files) : null;
    return n.edges.map((e) => {
      const where = `${e.file}:${e.line}`;
      const id = `${n.id}->${e.dialog ? 'dialog:' : ''}${e.to}`;
      const edge = (condition: string, label: string): FlowEdge => ({ id, from: n.id, to: e.to, dialog: e.dialog, reached: e.reached, condition, label, where });
      if (!texts.has(e.file)) return edge(`see ${where}`, `see line ${e.line}`);
      if (e.dialog) return edge(r.next ? `next: ${r.next} asks the dialog ${e.to}` : `a rule of ${n.id} asks the dialog ${e.to}`, 'rule asks it');
      if (e.to === n.id) return edge('the last step: Continue stays here', 'stays here');
      const j = index.get(e.to) ?? -1;
      // From the nearest step the rule names (without a rule: the step after this one) up to the
      // target, each step is skipped on the way.
      let from = i + 1;
      if (named) {
        from = j;
        while (from > i + 1 && !named.has(nodes[from]?.id ?? '')) from -= 1;
      }
      const skipped = j > i && !named?.has(e.to) ? nodes.slice(from, j).map((s) => s.id) : [];
      const skips = skipped.map((s) => `${s} is skipped (${rules.get(s)?.skipWhen ?? 'its skip_when'})`);
      const says = named?.has(e.to) ? e.to : named && skipped[0] && named.has(skipped[0]) ? skipped[0] : null;
      if (r.next !== undefined) {
        const answer = says ? ` answers "${says}"` : '';
        return edge(
          `next: ${r.next}${answer}${skips.length ? `, and ${listed(skips)}` : ''}`,
          `${says ? `rule says ${says}` : 'rule'}${skipped.length ? `, ${listed(skipped)} skipped` : ''}`,
        );
      }
      return edge(skips.length ? `Continue, when ${listed(skips)}` : 'Continue', skipped.length ? `Continue, ${listed(skipped)} skipped` : 'Continue');
    });
  });
}

/** A label's lines: words wrapped at `width` characters, a word longer than that cut. */
export function wrap(text: string, width = 34, maxLines = 4): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let w = word;
    while (w.length > width) {
      if (line) lines.push(line);
      lines.push(w.slice(0, width));
      line = '';
      w = w.slice(width);
    }
    if (!line) line = w;
    else if (line.length + 1 + w.length <= width) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${(kept[maxLines - 1] ?? '').slice(0, width - 1)}…`;
    return kept;
  }
  return lines;
}

/** Text sizes for the layout (the SVG's sans-serif at these sizes; a little generous). */
export const FONT = { node: 14, label: 12 } as const;
const CHAR = { node: 7.9, label: 6.9 } as const;
const LINE = { node: 18, label: 15 } as const;

/** A node's text: a step's title and id, its `next` rule and `skip_when` (wrapped); a dialog's id. */
export function nodeLines(n: { title: string; id: string; dialog: boolean }, rules: StepRules = {}): string[] {
  if (n.dialog) return ['Dialog', n.id];
  return [
    n.title,
    `(${n.id})`,
    ...(rules.next !== undefined ? wrap(`next: ${rules.next}`, 40, 3) : []),
    ...(rules.skipWhen !== undefined ? wrap(`skipped when ${rules.skipWhen}`, 40, 3) : []),
  ];
}

/** An edge's label in the diagram: ✓ or ✗ (reached or not, not by colour alone) and its short condition. */
export const edgeLabel = (e: FlowEdge) => `${e.reached ? '✓' : '✗'} ${e.label}`;

/**
 * The graph for ELK's layered layout, top to bottom: steps and the dialogs they ask as nodes,
 * transitions as edges labelled with their condition (label sizes estimated from the text).
 */
export function elkGraph(nodes: FlowNode[], edges: FlowEdge[], rules: Map<string, StepRules> = new Map()): ElkNode {
  // Partitions (layers in order): step i in 2i; the k-th dialog step i asks beside step i + 1 + k.
  const order = new Map(nodes.map((n, i) => [n.id, i]));
  const dialogRow = new Map<string, number>();
  const asked = new Map<string, number>();
  for (const e of edges) {
    if (!e.dialog || dialogRow.has(e.to)) continue;
    const k = asked.get(e.from) ?? 0;
    asked.set(e.from, k + 1);
    dialogRow.set(e.to, (order.get(e.from) ?? 0) + 1 + k);
  }
  const dialogs = [...dialogRow.keys()];
  const partition = (p: number) => ({ layoutOptions: { 'elk.partitioning.partition': String(p * 2) } });
  const box = (lines: string[], kind: 'node' | 'label', pad: number) => ({
    width: Math.ceil(Math.max(...lines.map((l) => l.length)) * CHAR[kind]) + pad * 2,
    height: lines.length * LINE[kind] + pad * 2,
  });
  const children: ElkNode[] = [
    ...nodes.map((n, i) => ({ id: `step:${n.id}`, ...box(nodeLines({ ...n, dialog: false }, rules.get(n.id)), 'node', 10), ...partition(i) })),
    ...dialogs.map((d) => ({ id: `dialog:${d}`, ...box(nodeLines({ title: '', id: d, dialog: true }), 'node', 8), ...partition(dialogRow.get(d) ?? 0) })),
  ];
  const elkEdges: ElkExtendedEdge[] = edges.map((e) => {
    const lines = wrap(edgeLabel(e), 20);
    return {
      id: e.id,
      sources: [`step:${e.from}`],
      targets: [e.dialog ? `dialog:${e.to}` : `step:${e.to}`],
      labels: [{ id: `${e.id}#label`, text: lines.join('\n'), ...box(lines, 'label', 2) }],
    };
  });
  return {
    id: 'flow',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.crossingMinimization.forceNodeModelOrder': 'true',
      // Steps in their order, a step's dialogs down beside the steps after it (not all in one row).
      'elk.partitioning.activate': 'true',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.spacing.nodeNode': '20',
      'elk.spacing.edgeNode': '12',
      'elk.spacing.edgeEdge': '10',
      'elk.spacing.edgeLabel': '4',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.layered.spacing.edgeNodeBetweenLayers': '16',
      'elk.layered.spacing.edgeEdgeBetweenLayers': '10',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children,
    edges: elkEdges,
  };
}

/** A box of the laid-out diagram. */
export interface DrawnNode {
  id: string;
  dialog: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
}

/** A laid-out transition: its line's points and its label's place. */
export interface DrawnEdge {
  edge: FlowEdge;
  points: { x: number; y: number }[];
  label: { x: number; y: number; width: number; height: number; lines: string[] } | null;
}

export interface FlowDrawing {
  width: number;
  height: number;
  nodes: DrawnNode[];
  edges: DrawnEdge[];
}

/** ELK's answer as what the SVG draws (a node or edge ELK left out is not drawn). */
export function readLayout(laid: ElkNode, nodes: FlowNode[], edges: FlowEdge[], rules: Map<string, StepRules> = new Map()): FlowDrawing {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const drawnNodes: DrawnNode[] = (laid.children ?? []).map((c) => {
    const dialog = c.id.startsWith('dialog:');
    const id = c.id.replace(/^(step|dialog):/, '');
    const step = byId.get(id);
    return {
      id,
      dialog,
      x: c.x ?? 0,
      y: c.y ?? 0,
      width: c.width ?? 0,
      height: c.height ?? 0,
      lines: nodeLines({ title: step?.title ?? id, id, dialog }, dialog ? {} : rules.get(id)),
    };
  });
  const laidEdges = new Map((laid.edges ?? []).map((e) => [e.id, e as ElkExtendedEdge]));
  const drawnEdges: DrawnEdge[] = edges.flatMap((edge) => {
    const l = laidEdges.get(edge.id);
    const s = l?.sections?.[0];
    if (!l || !s) return [];
    const label = l.labels?.[0];
    return [
      {
        edge,
        points: [s.startPoint, ...(s.bendPoints ?? []), s.endPoint],
        label: label
          ? { x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0, lines: (label.text ?? '').split('\n') }
          : null,
      },
    ];
  });
  return { width: Math.ceil(laid.width ?? 0), height: Math.ceil(laid.height ?? 0), nodes: drawnNodes, edges: drawnEdges };
}
