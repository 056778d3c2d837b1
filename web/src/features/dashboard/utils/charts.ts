import type { CarrierShare, EnrollmentsYtd } from '../types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface YtdPoint {
  key: string;
  /** 'Jan' … 'Dec' (the key as sent when it is not YYYY-MM). */
  month: string;
  count: number;
}

/** The line chart's points, in the order the server sent the months ("2025-01" → "Jan"). */
export function ytdPoints(ytd: EnrollmentsYtd | null | undefined): YtdPoint[] {
  return Object.entries(ytd ?? {}).map(([key, count]) => {
    const m = /^\d{4}-(\d{2})$/.exec(key);
    const month = m ? MONTHS[Number(m[1]) - 1] : undefined;
    return { key, month: month ?? key, count: Number(count) || 0 };
  });
}

/** No month, or every month zero: the chart shows 'Nothing to show yet'. */
export function isYtdEmpty(points: YtdPoint[]): boolean {
  return points.every((p) => p.count === 0);
}

export interface CarrierSlice {
  id: string;
  name: string;
  count: number;
  color: string;
}

const FALLBACK_COLOR = '#5a5a5a';

/** The pie's slices: carriers with at least one submission, names and colours from the response. */
export function carrierSlices(share: CarrierShare | null | undefined): CarrierSlice[] {
  if (!share) return [];
  return Object.entries(share.carrierCounts ?? {})
    .map(([id, count]) => ({
      id,
      name: share.carrierNames?.[id] ?? `Carrier ${id}`,
      count: Number(count) || 0,
      color: share.carrierColors?.[id] ?? FALLBACK_COLOR,
    }))
    .filter((s) => s.count > 0);
}

/** "Jan: 3, Feb: 0" — the text alternative of a chart. */
export function summarize(items: { label: string; count: number }[]): string {
  return items.map((i) => `${i.label}: ${i.count}`).join(', ');
}
