import { describe, expect, it } from 'vitest';
import { parsePlanName, planNameText } from './plan-name';

describe('plan names', () => {
  it('keeps the few inline tags and decodes entities', () => {
    expect(parsePlanName('UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO')).toEqual([
      'UnitedHealthcare Choice Plus',
      { tag: 'sup', children: ['®'] },
      ' Silver PPO',
    ]);
    expect(planNameText('UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO')).toBe(
      'UnitedHealthcare Choice Plus® Silver PPO',
    );
  });

  it('leaves plain names alone', () => {
    expect(parsePlanName('Blue Dental PPO Basic')).toEqual(['Blue Dental PPO Basic']);
    expect(parsePlanName('')).toEqual([]);
  });

  it('turns other tags into their text and drops scripts, handlers and links', () => {
    const nodes = parsePlanName(
      '<a href="javascript:alert(1)" onclick="x()">Gold</a><img src=x onerror="alert(1)"><script>alert(1)</script><b onmouseover="y()">HMO</b>',
    );
    expect(nodes).toEqual(['Gold', { tag: 'b', children: ['HMO'] }]);
    expect(JSON.stringify(nodes)).not.toMatch(/alert|onclick|onerror|href/);
    expect(planNameText('<style>p{}</style>A &amp; B<br>C')).toBe('A & B C');
  });

  it('keeps text that only looks like markup as text', () => {
    expect(planNameText('Plan &lt;script&gt;')).toBe('Plan <script>');
  });

  it('gives each name its own nodes when names are parsed again (they are remembered)', () => {
    const first = parsePlanName('Choice Plus<sup>&reg;</sup>');
    const second = parsePlanName('Saver<sub>2</sub> &amp; More');
    expect(parsePlanName('Choice Plus<sup>&reg;</sup>')).toEqual(['Choice Plus', { tag: 'sup', children: ['®'] }]);
    expect(parsePlanName('Saver<sub>2</sub> &amp; More')).toEqual(['Saver', { tag: 'sub', children: ['2'] }, ' & More']);
    expect(parsePlanName('Choice Plus<sup>&reg;</sup>')).toBe(first);
    expect(parsePlanName('Saver<sub>2</sub> &amp; More')).toBe(second);
  });
});
