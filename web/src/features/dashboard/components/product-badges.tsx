import type { DashboardRow } from '../types';
import { plainText } from '@/lib/plain-text';

/** M, D, V badges with the plan name as tooltip and as screen-reader text. */
export function ProductBadges({ row }: { row: DashboardRow }) {
  const items: [string, string, string | null][] = [
    ['M', 'Medical', row.medical_plan_name],
    ['D', 'Dental', row.dental_plan_name],
    ['V', 'Vision', row.vision_plan_name],
  ];
  return (
    <span className="ef-dashboard__products">
      {items
        .filter(([, , name]) => name)
        .map(([letter, label, name]) => {
          const text = `${label}: ${plainText(name ?? '')}`;
          return (
            <span key={letter} className="ds-c-badge ds-c-badge--info ds-u-margin-right--1" title={text}>
              <span aria-hidden="true">{letter}</span>
              <span className="ds-u-visibility--screen-reader">{text}</span>
            </span>
          );
        })}
    </span>
  );
}
