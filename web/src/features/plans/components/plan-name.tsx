import { createElement, Fragment, type ReactNode } from 'react';
import { parsePlanName, type NameNode } from '../utils/plan-name';

function render(nodes: readonly NameNode[]): ReactNode[] {
  return nodes.map((n, i) =>
    typeof n === 'string' ? (
      <Fragment key={i}>{n}</Fragment>
    ) : n.tag === 'br' ? (
      createElement('br', { key: i })
    ) : (
      createElement(n.tag, { key: i }, ...render(n.children))
    ),
  );
}

/** A plan name with its few allowed inline tags (sup, sub, b, i, …), never as raw HTML. */
export function PlanName({ html }: { html: string }) {
  return <>{render(parsePlanName(html))}</>;
}
