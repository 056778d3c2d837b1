// The impact in business terms: which plan a made-up household's premium group is about (its name
// from the set's plan catalogs), each change in dollars and percent, and a group's totals.
import type { ImpactChange, SetFile } from '@/types/api';
import { yamlScalar } from './workbench';

/** Plan names by `<kind>:<id>` (`medical:521`) and by id alone, from the catalogs' `rules/catalog/<year>/<kind>.yaml`. */
export function planNames(files: SetFile[]): Map<string, string> {
  const out = new Map<string, string>();
  const catalogs = files.filter((f) => /^rules\/catalog\/[^/]+\/(medical|dental|vision)\.ya?ml$/.test(f.path));
  // Later years last: a plan named in two years reads as the newer catalog names it.
  catalogs.sort((a, b) => a.path.localeCompare(b.path));
  for (const f of catalogs) {
    const kind = /\/(\w+)\.ya?ml$/.exec(f.path)?.[1] ?? '';
    const add = (id: string, name: string) => {
      if (!name) return;
      out.set(`${kind}:${id}`, name);
      out.set(id, name);
    };
    let id: string | null = null;
    for (const line of f.text.split('\n')) {
      const inline = /^\s*-\s*\{\s*id:\s*(\d+)\s*,\s*name:\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,}]+)/.exec(line);
      if (inline) {
        add(inline[1] ?? '', yamlScalar(inline[2] ?? ''));
        id = null;
        continue;
      }
      const item = /^\s*-\s*id:\s*(\d+)\s*(#.*)?$/.exec(line);
      if (item) {
        id = item[1] ?? null;
        continue;
      }
      const name = /^\s+name:\s*(.+)$/.exec(line);
      if (id && name) {
        add(id, yamlScalar(name[1] ?? ''));
        id = null;
      }
    }
  }
  return out;
}

/** A group about one plan: `medical: plan 521 premium` → the step, the plan's id and what of it. */
export interface PlanGroup {
  step: string;
  id: string;
  /** `premium`, `members`, … */
  what: string;
}

export function planGroup(what: string): PlanGroup | null {
  const m = /^(\w+): plan (\d+) (.+)$/.exec(what);
  return m ? { step: m[1] ?? '', id: m[2] ?? '', what: m[3] ?? '' } : null;
}

/** The plan's name as the catalogs give it (for its step's kind first), else "plan 521". */
export function planName(group: PlanGroup, names: Map<string, string>): string {
  return names.get(`${group.step}:${group.id}`) ?? names.get(group.id) ?? `plan ${group.id}`;
}

/** "$1,097.26" (or "1097.26") as dollars; null when it is no amount ("—", "not charged", a list). */
export function parseMoney(text: string): number | null {
  const m = /^\s*(-)?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*$/.exec(text);
  if (!m) return null;
  const n = Number(`${m[2]?.replace(/,/g, '')}${m[3] ?? ''}`);
  return m[1] ? -n : n;
}

const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const MINUS = '\u2212';

/** "$412.50"; a negative amount with a minus sign. */
export const dollars = (n: number) => (n < 0 ? `${MINUS}${DOLLARS.format(-n)}` : DOLLARS.format(n));

/** A signed amount: "+$12.00", "−$156.90", "$0.00". */
export const signedDollars = (n: number) => (Math.abs(n) < 0.005 ? DOLLARS.format(0) : `${n > 0 ? '+' : MINUS}${DOLLARS.format(Math.abs(n))}`);

/** A signed percentage to a tenth: "+3.2 %", "−38.0 %", "0.0 %". */
export const signedPercent = (p: number) => {
  const r = Math.round(p * 10) / 10;
  return `${r > 0 ? '+' : r < 0 ? MINUS : ''}${Math.abs(r).toFixed(1)} %`;
};

/** A change of an amount: the difference and its share of the amount before (none from $0). */
export interface MoneyChange {
  before: number;
  after: number;
  delta: number;
  percent: number | null;
}

export function moneyChange(before: string, after: string): MoneyChange | null {
  const b = parseMoney(before);
  const a = parseMoney(after);
  if (b === null || a === null) return null;
  const delta = Math.round((a - b) * 100) / 100;
  return { before: b, after: a, delta, percent: b === 0 ? null : (delta / b) * 100 };
}

/** "−$156.90, −38.0 %" (the percentage left out from $0). */
export const changeText = (c: MoneyChange) => (c.percent === null ? signedDollars(c.delta) : `${signedDollars(c.delta)}, ${signedPercent(c.percent)}`);

/** "$412.50 → $255.60 (−$156.90, −38.0 %)"; a value that is no amount as it reads ("— → $255.60"). */
export function changeLine(before: string, after: string): string {
  const c = moneyChange(before, after);
  return c ? `${dollars(c.before)} → ${dollars(c.after)} (${changeText(c)})` : `${before} → ${after}`;
}

/** A group's totals: households affected and the average change of those with an amount before and after. */
export interface GroupTotals {
  households: number;
  /** Those with an amount before and after. */
  compared: number;
  /** Average change in dollars and in percent (of those with an amount before). */
  average: number | null;
  averagePercent: number | null;
  /** An amount now where there was none ("—": the plan was not quoted to them), and the other way. */
  gained: number;
  lost: number;
}

export function groupTotals(changes: ImpactChange[]): GroupTotals {
  const cs = changes.map((c) => moneyChange(c.before, c.after)).filter((c): c is MoneyChange => c !== null);
  const pcts = cs.flatMap((c) => (c.percent === null ? [] : [c.percent]));
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
  const amount = (s: string) => parseMoney(s) !== null;
  return {
    households: new Set(changes.map((c) => c.application)).size,
    compared: cs.length,
    average: mean(cs.map((c) => c.delta)),
    averagePercent: mean(pcts),
    gained: changes.filter((c) => !amount(c.before) && amount(c.after)).length,
    lost: changes.filter((c) => amount(c.before) && !amount(c.after)).length,
  };
}

/** "2 households affected; average change −$152.50 (−37.7 %)" and, if any, who gains or loses the amount. */
export function totalsLine(t: GroupTotals): string {
  const parts = [`${t.households.toLocaleString('en-US')} household${t.households === 1 ? '' : 's'} affected`];
  if (t.average !== null) {
    parts.push(`average change ${signedDollars(t.average)}${t.averagePercent === null ? '' : ` (${signedPercent(t.averagePercent)})`}`);
  }
  if (t.gained > 0) parts.push(`${t.gained.toLocaleString('en-US')} newly quoted`);
  if (t.lost > 0) parts.push(`${t.lost.toLocaleString('en-US')} no longer quoted`);
  return parts.join('; ');
}
