import { describe, expect, it } from 'vitest';
import ELK from 'elkjs/lib/elk.bundled.js';
import { edgeLabel, elkGraph, flowEdges, flowRules, namedByRule, nodeLines, readLayout, stepRules, wrap } from './flow';
import { at, FILES, FLOW, NODES } from '../testing/flow';

describe('the flow diagram', () => {
  it("reads a step's next and skip_when from its lines in the flow file", () => {
    expect(stepRules(FLOW, at('why'))).toEqual({ next: '"census"' });
    expect(stepRules(FLOW, at('census'))).toEqual({ next: 'census::next_step(app, ctx, input)' });
    expect(stepRules(FLOW, at('medical'))).toEqual({ skipWhen: 'app.skip_medical == true' });
    expect(stepRules(FLOW, at('dental'))).toEqual({ skipWhen: 'app.skip_dental == true' });
    expect(stepRules(FLOW, at('review'))).toEqual({});
    expect(stepRules(FLOW, 1)).toEqual({});
  });

  it('knows what a next rule answers: its strings and those of the script function it calls', () => {
    expect([...namedByRule('census::next_step(app, ctx, input)', FILES)].sort()).toEqual(['child_only', 'dental', 'medical']);
    expect([...namedByRule('"census"', FILES)]).toEqual(['census']);
    expect([...namedByRule('other::nothing(app)', FILES)]).toEqual([]);
  });

  it('labels every transition with its condition: the rule and what it answers, Continue, the steps skipped', () => {
    const edges = flowEdges(NODES, FILES);
    const by = Object.fromEntries(edges.map((e) => [e.id, e]));
    expect(by['why->census']).toMatchObject({ condition: 'next: "census" answers "census"', label: 'rule says census', reached: true });
    expect(by['census->medical']?.condition).toBe('next: census::next_step(app, ctx, input) answers "medical"');
    expect(by['census->review']).toMatchObject({
      condition: 'next: census::next_step(app, ctx, input) answers "dental", and dental is skipped (app.skip_dental == true)',
      label: 'rule says dental, dental skipped',
      reached: false,
    });
    expect(by['census->dialog:child_only']).toMatchObject({ dialog: true, label: 'rule asks it', condition: 'next: census::next_step(app, ctx, input) asks the dialog child_only' });
    expect(by['medical->dental']).toMatchObject({ condition: 'Continue', label: 'Continue' });
    expect(by['medical->review']).toMatchObject({ condition: 'Continue, when dental is skipped (app.skip_dental == true)', label: 'Continue, dental skipped' });
    expect(by['rap->rap']?.label).toBe('stays here');
    expect(by['why->census']?.where).toBe(`rules/flows/enrollment.flow.yaml:${at('why')}`);
    // Without the flow file, where the step is written.
    expect(flowEdges(NODES, [])[0]).toMatchObject({ condition: `see rules/flows/enrollment.flow.yaml:${at('why')}`, label: `see line ${at('why')}` });
  });

  it('says reached or not in the label itself, not by colour alone', () => {
    const [reached, , notReached] = flowEdges(NODES, FILES).slice(1);
    expect(edgeLabel(reached!)).toBe('✓ rule says medical');
    expect(edgeLabel(notReached!)).toBe('✗ rule says dental, dental skipped');
  });

  it('wraps a label at its width and cuts what is too long', () => {
    expect(wrap('skipped when app.skip_pcp == true || app.medical_network_type_id != 2', 24)).toEqual([
      'skipped when',
      'app.skip_pcp == true ||',
      'app.medical_network_type',
      '_id != 2',
    ]);
    expect(wrap('a b c d e f', 1, 2)).toEqual(['a', '…']);
  });

  it("shows a step's rules in its box, a dialog as a dialog", () => {
    expect(nodeLines({ id: 'census', title: 'About You', dialog: false }, { next: 'census::next_step(app, ctx, input)' })).toEqual([
      'About You',
      '(census)',
      'next: census::next_step(app, ctx, input)',
    ]);
    expect(nodeLines({ id: 'child_only', title: '', dialog: true })).toEqual(['Dialog', 'child_only']);
  });

  it("lays the flow out with ELK's layered algorithm: steps down in order, dialogs beside later steps, labels on the lines", async () => {
    const edges = flowEdges(NODES, FILES);
    const rules = flowRules(NODES, FILES);
    const graph = elkGraph(NODES, edges, rules);
    expect(graph.layoutOptions).toMatchObject({ 'elk.algorithm': 'layered', 'elk.direction': 'DOWN' });
    const partition = (id: string) => graph.children?.find((c) => c.id === id)?.layoutOptions?.['elk.partitioning.partition'];
    expect(partition('step:census')).toBe('2');
    expect(partition('dialog:child_only')).toBe('4');
    expect(graph.edges?.find((e) => e.id === 'census->review')?.labels?.[0]?.text).toBe('✗ rule says dental,\ndental skipped');

    const drawing = readLayout(await new ELK().layout(graph), NODES, edges, rules);
    expect(drawing.nodes).toHaveLength(NODES.length + 1);
    expect(drawing.edges).toHaveLength(edges.length);
    const y = (id: string) => drawing.nodes.find((n) => n.id === id && !n.dialog)!.y;
    expect(y('why')).toBeLessThan(y('census'));
    expect(y('census')).toBeLessThan(y('medical'));
    expect(y('dental')).toBeLessThan(y('review'));
    expect(drawing.nodes.find((n) => n.dialog)).toMatchObject({ id: 'child_only', lines: ['Dialog', 'child_only'] });
    for (const e of drawing.edges) {
      expect(e.points.length).toBeGreaterThanOrEqual(2);
      expect(e.label?.lines.join(' ')).toBe(wrap(edgeLabel(e.edge), 20).join(' '));
    }
    expect(drawing.width).toBeGreaterThan(0);
    expect(drawing.height).toBeGreaterThan(0);
  });
});
