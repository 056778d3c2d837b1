import { useEffect, useId, useMemo, useState } from 'react';
import { Spinner } from '@cmsgov/design-system';
import type { SetFile } from '@/types/api';
import { edgeLabel, elkGraph, flowEdges, flowRules, FONT, readLayout, type DrawnEdge, type DrawnNode, type FlowDrawing, type FlowEdge } from '../utils/flow';
import type { FlowNode } from '../utils/workbench';

const OK = '#2e7d32';
const OK_TEXT = '#1b5e20';
const NO = '#b50909';

type Drawing = { state: 'laying out' } | { state: 'failed' } | { state: 'drawn'; drawing: FlowDrawing };
/** ELK's answer, for the transitions it was asked about (others are still being laid out). */
type Laid = { edges: FlowEdge[]; drawing: Drawing };

/**
 * The flow as a diagram laid out by ELK (layered, top to bottom; loaded on demand): the steps and
 * the dialogs their rules ask, every transition labelled with its condition. Reached: a solid green
 * line, "✓ reached"; not reached: a dashed red line, "✗ not reached" (the words and the line say it
 * without the colours). The same transitions follow as a list for screen readers and small screens.
 */
export function FlowTab({ nodes, files }: { nodes: FlowNode[]; files: SetFile[] }) {
  const edges = useMemo(() => flowEdges(nodes, files), [nodes, files]);
  const rules = useMemo(() => flowRules(nodes, files), [nodes, files]);
  const [laid, setLaid] = useState<Laid | null>(null);
  const drawing: Drawing = laid?.edges === edges ? laid.drawing : { state: 'laying out' };
  const titleId = useId();
  const legendId = useId();

  useEffect(() => {
    let live = true;
    import('../utils/elk')
      .then(({ layout }) => layout(elkGraph(nodes, edges, rules)))
      .then(
        (result) => live && setLaid({ edges, drawing: { state: 'drawn', drawing: readLayout(result, nodes, edges, rules) } }),
        () => live && setLaid({ edges, drawing: { state: 'failed' } }),
      );
    return () => {
      live = false;
    };
  }, [nodes, edges, rules]);

  const byStep = useMemo(() => {
    const out = new Map<string, FlowEdge[]>();
    for (const e of edges) out.set(e.from, [...(out.get(e.from) ?? []), e]);
    return out;
  }, [edges]);
  const notReached = edges.filter((e) => !e.reached).length;

  return (
    <>
      <p id={legendId}>
        {edges.length} transitions, {notReached} not reached by a scenario. In the diagram a solid green line marked ✓ is a
        transition a scenario took; a dashed red line marked ✗, one none took. Each line is labelled with when it is taken.
      </p>
      <div className="ef-workbench__diagram" tabIndex={0} role="region" aria-label="Flow diagram (scrolls)">
        {drawing.state === 'laying out' && <Spinner aria-valuetext="Laying out the flow diagram" role="status" />}
        {drawing.state === 'failed' && (
          <p className="ef-workbench__muted">The diagram could not be laid out; the transitions are listed below.</p>
        )}
        {drawing.state === 'drawn' && <FlowSvg drawing={drawing.drawing} titleId={titleId} legendId={legendId} />}
      </div>
      <h3 className="ds-text-heading--lg">Transitions</h3>
      <ul className="ef-workbench__edges">
        {nodes.map((n) => {
          const out = byStep.get(n.id) ?? [];
          return (
            <li key={n.id}>
              <strong>{n.title}</strong> (<code>{n.id}</code>):{' '}
              {out.length === 0 ? (
                'no way on'
              ) : (
                <ul>
                  {out.map((e) => (
                    <li key={e.id} className={e.reached ? 'ef-workbench__ok' : 'ef-workbench__bad'}>
                      {e.dialog ? `dialog ${e.to}` : `→ ${e.to}`} ({e.reached ? 'reached' : 'not reached'}): {e.condition}{' '}
                      <code className="ef-workbench__where">{e.where}</code>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function FlowSvg({ drawing, titleId, legendId }: { drawing: FlowDrawing; titleId: string; legendId: string }) {
  const { width, height } = drawing;
  return (
    <svg
      className="ef-workbench__flow"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={legendId}
    >
      <title id={titleId}>The flow&apos;s steps and transitions</title>
      <defs>
        <marker id="ef-arrow-ok" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={OK} />
        </marker>
        <marker id="ef-arrow-no" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={NO} />
        </marker>
      </defs>
      {drawing.edges.map((e) => (
        <EdgeLine key={e.edge.id} drawn={e} />
      ))}
      {drawing.nodes.map((n) => (
        <NodeBox key={`${n.dialog ? 'dialog' : 'step'}:${n.id}`} node={n} />
      ))}
      {drawing.edges.map((e) => (e.label ? <EdgeLabel key={`${e.edge.id}#label`} drawn={e} /> : null))}
    </svg>
  );
}

function EdgeLine({ drawn }: { drawn: DrawnEdge }) {
  const { reached } = drawn.edge;
  return (
    <polyline
      data-edge={drawn.edge.id}
      data-reached={reached}
      points={drawn.points.map((p) => `${p.x},${p.y}`).join(' ')}
      fill="none"
      stroke={reached ? OK : NO}
      strokeWidth="2"
      strokeDasharray={reached ? undefined : '6 4'}
      markerEnd={reached ? 'url(#ef-arrow-ok)' : 'url(#ef-arrow-no)'}
    />
  );
}

function EdgeLabel({ drawn }: { drawn: DrawnEdge }) {
  const l = drawn.label;
  if (!l) return null;
  const { reached } = drawn.edge;
  return (
    <g className="ef-workbench__flow-label">
      <title>{edgeLabel(drawn.edge)}</title>
      <rect x={l.x - 2} y={l.y - 1} width={l.width + 4} height={l.height + 2} rx="3" fill="#ffffff" fillOpacity="0.92" />
      <text x={l.x + 2} y={l.y + 2} fontSize={FONT.label} fill={reached ? OK_TEXT : NO}>
        {l.lines.map((line, k) => (
          <tspan key={k} x={l.x + 2} dy={k === 0 ? FONT.label : FONT.label + 3} fontWeight={k === 0 ? 700 : undefined}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

function NodeBox({ node: n }: { node: DrawnNode }) {
  const cx = n.x + n.width / 2;
  const top = n.y + (n.height - n.lines.length * 18) / 2;
  return (
    <g data-node={`${n.dialog ? 'dialog' : 'step'}:${n.id}`}>
      <rect
        x={n.x}
        y={n.y}
        width={n.width}
        height={n.height}
        rx={n.dialog ? n.height / 2 : 6}
        fill={n.dialog ? '#fff4d6' : '#f1f1f1'}
        stroke={n.dialog ? '#8a5a00' : '#5a5a5a'}
        strokeWidth={n.dialog ? 1.5 : 1}
      />
      <text x={cx} y={top} fontSize={FONT.node} fill="#1b1b1b" textAnchor="middle">
        {n.lines.map((line, k) => (
          <tspan
            key={k}
            x={cx}
            dy={k === 0 ? 14 : 18}
            fontSize={k > 1 ? FONT.label : undefined}
            fontWeight={k === 0 ? 700 : undefined}
            fontStyle={n.dialog && k === 0 ? 'italic' : undefined}
          >
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}
