import { cleanup, render, screen, within } from '@/test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { FILES, NODES } from '../testing/flow';
import { FlowTab } from './flow-tab';

// ELK in this thread (the browser runs it in a worker, utils/elk.ts).
const layout = vi.hoisted(() => ({ fail: false }));
vi.mock('../utils/elk', () => ({
  layout: (graph: ElkNode) => (layout.fail ? Promise.reject(new Error('no worker')) : new ELK().layout(graph)),
}));

afterEach(() => {
  cleanup();
  layout.fail = false;
});

/** ELK's first layout loads its 1.6 MB script (seconds on a busy machine). */
const laidOut = () => screen.findByRole('img', { name: "The flow's steps and transitions" }, { timeout: 10_000 });

describe('the Flow tab', () => {
  it('draws the layout: reached transitions solid green, the others dashed red, each labelled with ✓ or ✗ and its condition', async () => {
    const { container } = render(<FlowTab nodes={NODES} files={FILES} />);
    const svg = await laidOut();
    const line = (id: string) => container.querySelector(`polyline[data-edge="${id}"]`)!;
    expect(line('census->medical').getAttribute('stroke')).toBe('#2e7d32');
    expect(line('census->medical').getAttribute('stroke-dasharray')).toBeNull();
    expect(line('census->review').getAttribute('stroke')).toBe('#b50909');
    expect(line('census->review').getAttribute('stroke-dasharray')).toBe('6 4');
    expect(container.querySelectorAll('polyline')).toHaveLength(10);
    const labels = [...svg.querySelectorAll('.ef-workbench__flow-label title')].map((t) => t.textContent);
    expect(labels).toContain('✓ rule says medical');
    expect(labels).toContain('✗ rule says dental, dental skipped');
    expect(labels).toContain('✗ rule asks it');
    expect(svg.querySelector('[data-node="dialog:child_only"]')?.textContent).toBe('Dialogchild_only');
    expect(svg.querySelector('[data-node="step:census"]')?.textContent).toContain('next: census::next_step(app, ctx, input)');
    // Wider than a phone: it scrolls in its own focusable region.
    expect(Number(svg.getAttribute('width'))).toBeGreaterThan(360);
    expect(screen.getByRole('region', { name: 'Flow diagram (scrolls)' }).getAttribute('tabindex')).toBe('0');
  });

  it('lists every transition with its condition and where the step is written, for screen readers and small screens', async () => {
    render(<FlowTab nodes={NODES} files={FILES} />);
    expect(screen.getByText('10 transitions, 3 not reached by a scenario.', { exact: false })).toBeTruthy();
    const census = screen.getByText('About You').closest('li')!;
    const items = within(census).getAllByRole('listitem').map((li) => li.textContent);
    expect(items[2]).toBe(
      '→ review (not reached): next: census::next_step(app, ctx, input) answers "dental", and dental is skipped (app.skip_dental == true) rules/flows/enrollment.flow.yaml:6',
    );
    expect(items[3]).toMatch(/^dialog child_only \(not reached\): next: census::next_step\(app, ctx, input\) asks the dialog child_only/);
    await laidOut();
  });

  it('keeps the list when the diagram cannot be laid out', async () => {
    layout.fail = true;
    render(<FlowTab nodes={NODES} files={FILES} />);
    expect(await screen.findByText('The diagram could not be laid out; the transitions are listed below.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Transitions' })).toBeTruthy();
  });
});
