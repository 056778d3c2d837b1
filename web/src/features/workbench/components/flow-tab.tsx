import type { FlowNode } from '../utils/workbench';

const ROW = 64;
const BOX_W = 300;
const BOX_H = 40;
const LEFT = 16;

/**
 * The flow drawn as its steps in order with every way each can go: arrows to later steps on the
 * right (to the next step straight down), dialogs as labels beside the step. Green: a scenario took
 * it; red, dashed: none did. The same list follows as text for screen readers and small screens.
 */
export function FlowTab({ nodes }: { nodes: FlowNode[] }) {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const edges = nodes.flatMap((n, i) =>
    n.edges.filter((e) => !e.dialog).map((e) => ({ from: i, to: index.get(e.to) ?? i, reached: e.reached, key: `${n.id}-${e.to}` })),
  );
  const longest = Math.max(1, ...edges.map((e) => Math.abs(e.to - e.from)));
  const width = LEFT + BOX_W + 40 + longest * 18 + 220;
  const height = nodes.length * ROW + 16;
  return (
    <>
      <div className="ef-workbench__diagram">
        <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-labelledby="flow-title">
          <title id="flow-title">The flow&apos;s steps and transitions</title>
          <defs>
            <marker id="arrow-ok" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill="#2e7d32" />
            </marker>
            <marker id="arrow-no" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill="#b50909" />
            </marker>
          </defs>
          {edges.map((e) => {
            const y1 = 8 + e.from * ROW + BOX_H / 2;
            const y2 = 8 + e.to * ROW + BOX_H / 2;
            const span = Math.abs(e.to - e.from);
            const x = LEFT + BOX_W;
            const color = e.reached ? '#2e7d32' : '#b50909';
            const marker = e.reached ? 'url(#arrow-ok)' : 'url(#arrow-no)';
            if (e.to === e.from) {
              return (
                <path key={e.key} d={`M ${x} ${y1 - 8} c 28 -14 28 30 0 16`} fill="none" stroke={color} strokeWidth="2" strokeDasharray={e.reached ? undefined : '5 4'} markerEnd={marker} />
              );
            }
            const bulge = 20 + span * 18;
            return (
              <path
                key={e.key}
                d={`M ${x} ${y1} C ${x + bulge} ${y1}, ${x + bulge} ${y2}, ${x + 2} ${y2}`}
                fill="none"
                stroke={color}
                strokeWidth="2"
                strokeDasharray={e.reached ? undefined : '5 4'}
                markerEnd={marker}
              />
            );
          })}
          {nodes.map((n, i) => {
            const y = 8 + i * ROW;
            const dialogs = n.edges.filter((e) => e.dialog);
            return (
              <g key={n.id}>
                <rect x={LEFT} y={y} width={BOX_W} height={BOX_H} rx="6" fill="#f1f1f1" stroke="#5a5a5a" />
                <text x={LEFT + 10} y={y + 25} fontSize="13" fill="#1b1b1b">
                  {n.title} ({n.id})
                </text>
                {dialogs.length > 0 && (
                  <text x={LEFT + BOX_W + 40 + longest * 18} y={y + 12} fontSize="12">
                    {dialogs.map((d, k) => (
                      <tspan key={d.to} x={LEFT + BOX_W + 40 + longest * 18} dy={k === 0 ? 0 : 13} fill={d.reached ? '#2e7d32' : '#b50909'}>
                        {k === 0 ? 'dialog ' : ''}
                        {d.to}
                      </tspan>
                    ))}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <h3 className="ds-text-heading--lg">Transitions</h3>
      <ul className="ef-workbench__edges">
        {nodes.map((n) => (
          <li key={n.id}>
            <strong>{n.title}</strong> (<code>{n.id}</code>):{' '}
            {n.edges.length === 0
              ? 'no way on'
              : n.edges.map((e, k) => (
                  <span key={`${e.to}-${e.dialog}`} className={e.reached ? 'ef-workbench__ok' : 'ef-workbench__bad'}>
                    {k > 0 ? ', ' : ''}
                    {e.dialog ? `dialog ${e.to}` : `→ ${e.to}`} ({e.reached ? 'reached' : 'not reached'})
                  </span>
                ))}
          </li>
        ))}
      </ul>
    </>
  );
}
