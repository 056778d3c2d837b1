import { plainSpaces } from '@/lib/michigan-time';
import type { CoverageItem, CoverageReport, Publication, SetFile, StepInfo, Tally } from '@/types/api';

/** "96.5%": a tally's share, rounded down to a tenth (100% only when all is reached). */
export function percent(t: Tally): string {
  if (t.total === 0) return '100%';
  return `${(Math.floor((t.reached * 1000) / t.total) / 10).toFixed(1)}%`;
}

/** A source line and its number, `at` marking the line a problem names. */
export interface SourceLine {
  number: number;
  text: string;
  at: boolean;
}

/** The lines of `file` around `line` (two before and after), from the set's files. */
export function linesAround(files: SetFile[], file: string, line: number, radius = 2): SourceLine[] {
  const text = files.find((f) => f.path === file)?.text;
  if (text === undefined || line < 1) return [];
  const lines = text.split('\n');
  const from = Math.max(1, line - radius);
  const to = Math.min(lines.length, line + radius);
  const out: SourceLine[] = [];
  for (let n = from; n <= to; n += 1) out.push({ number: n, text: lines[n - 1] ?? '', at: n === line });
  return out;
}

/** A problem the server names in a file: `file:line:column: message` read into its parts. */
export interface ParsedProblem {
  file: string;
  line: number;
  /** From 1; absent when the server names the line only. */
  column?: number;
  message: string;
}

/** `file:line:column: message` (the server's form of a problem) into its parts. */
export function parseProblem(text: string): ParsedProblem | null {
  const m = /^([^:\s]+):(\d+)(?::(\d+))?: (.*)$/s.exec(text);
  if (!m) return null;
  const problem: ParsedProblem = { file: m[1] ?? '', line: Number(m[2]), message: m[4] ?? '' };
  if (m[3]) problem.column = Number(m[3]);
  return problem;
}

/** The draft: the serving set's files with the edited ones replaced (new paths added), in path order. */
export function draftFiles(files: SetFile[], edits: Record<string, string>): SetFile[] {
  const out = new Map(files.map((f) => [f.path, f.text]));
  for (const [path, text] of Object.entries(edits)) out.set(path, text);
  return [...out.entries()].map(([path, text]) => ({ path, text })).sort((a, b) => a.path.localeCompare(b.path));
}

/** A YAML scalar as written on its line: quotes taken off (`''` in single quotes is `'`), a trailing comment dropped. */
export function yamlScalar(raw: string): string {
  const v = raw.trim();
  if (v.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'/.exec(v);
    return m ? (m[1] ?? '').replace(/''/g, "'") : v.slice(1);
  }
  if (v.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\.)*)"/.exec(v);
    if (!m) return v.slice(1);
    try {
      return JSON.parse(`"${m[1] ?? ''}"`) as string;
    } catch {
      return m[1] ?? '';
    }
  }
  return v.replace(/\s+#.*$/, '');
}

/** The folders a rule set is made of. */
const SET_FOLDERS = ['rules/', 'forms/', 'templates/'];

/**
 * A chosen folder's files as a draft: each path from its `rules/`, `forms/` or `templates/` folder
 * on (the folder chosen may be the repository or any folder above those), other files left out.
 */
export function uploadedPaths(relativePaths: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of relativePaths) {
    const parts = rel.split('/');
    const at = parts.findIndex((p, i) => i < parts.length - 1 && SET_FOLDERS.includes(`${p}/`));
    if (at < 0) continue;
    const path = parts.slice(at).join('/');
    const name = parts[parts.length - 1] ?? '';
    if (name.startsWith('.')) continue;
    const engineFile = name.endsWith('.yaml') || name.endsWith('.rhai');
    if (path.startsWith('templates/') || engineFile) out.set(rel, path);
  }
  return out;
}

/** A step and the ways it can go, reached by a scenario or not. */
export interface FlowNode {
  id: string;
  title: string;
  edges: { to: string; dialog: boolean; reached: boolean; file: string; line: number }[];
}

/** The flow's steps in order with their transitions from the coverage report ("a → b", "a → dialog x"). */
export function flowGraph(steps: StepInfo[], items: CoverageItem[]): FlowNode[] {
  const nodes: FlowNode[] = steps.map((s) => ({ id: s.id, title: s.title, edges: [] }));
  for (const item of items) {
    if (item.kind !== 'transition') continue;
    const [from, to] = item.what.split(' → ');
    const node = nodes.find((n) => n.id === from);
    if (!node || !to) continue;
    const dialog = to.startsWith('dialog ');
    node.edges.push({ to: dialog ? to.slice('dialog '.length) : to, dialog, reached: item.reached, file: item.file, line: item.line });
  }
  return nodes;
}

/** The coverage items not reached, statements and branches first, by file and line. */
export function missed(report: CoverageReport): CoverageItem[] {
  const order = ['statement', 'expression', 'branch', 'transition', 'modal', 'field', 'carrier'];
  return report.items
    .filter((i) => !i.reached)
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.file.localeCompare(b.file) || a.line - b.line);
}

export { michiganTime } from '@/lib/michigan-time';

/** The first characters of a hash, as the workbench shows it. */
export const short = (hash: string) => hash.slice(0, 12);

const WALL = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/**
 * A `datetime-local` value (`YYYY-MM-DDTHH:MM`, read as Michigan's clock) as a person reads it:
 * "Nov 20, 2024, 5:01 AM"; the text itself when it is not one.
 */
export function wallTime(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return value;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  return plainSpaces(WALL.format(new Date(Date.UTC(y, mo - 1, d, h, mi))));
}

/** A line of a unified diff: an added or removed line, context, a hunk's `@@` line or a file header. */
export interface DiffLine {
  kind: 'added' | 'removed' | 'context' | 'hunk' | 'header';
  text: string;
}

/** A unified diff's lines, each with its kind (the `---`/`+++` lines before the first hunk are headers). */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  let inHunk = false;
  return lines.map((text) => {
    if (text.startsWith('@@')) {
      inHunk = true;
      return { kind: 'hunk', text };
    }
    if (!inHunk && (text.startsWith('--- ') || text.startsWith('+++ ') || text === '---' || text === '+++')) return { kind: 'header', text };
    if (text.startsWith('+')) return { kind: 'added', text };
    if (text.startsWith('-')) return { kind: 'removed', text };
    if (text.startsWith('\\')) return { kind: 'header', text };
    return { kind: 'context', text };
  });
}

/** How many lines a diff adds and removes. */
export function diffCounts(lines: DiffLine[]): { added: number; removed: number } {
  return {
    added: lines.filter((l) => l.kind === 'added').length,
    removed: lines.filter((l) => l.kind === 'removed').length,
  };
}

/**
 * The id of the publication serving now: of those neither cancelled nor still scheduled (the
 * server's list of what takes effect later), the one that took effect last.
 */
export function servingPublication(publications: Publication[], scheduled: Publication[]): number | null {
  const later = new Set(scheduled.map((p) => p.id));
  const inEffect = publications.filter((p) => !p.cancelled_at && !later.has(p.id));
  const at = (p: Publication) => new Date(p.effective_at ?? p.published_at).getTime() || 0;
  inEffect.sort((a, b) => at(b) - at(a) || b.id - a.id);
  return inEffect[0]?.id ?? null;
}
