import { describe, expect, it } from 'vitest';
import { testFlow } from '@/testing/flow';
import { firstStep, planStep, stepAtPath, stepOfNumber, submittedStep } from './flow';

describe('the flow', () => {
  const flow = testFlow({ lastStep: 4 });

  it('finds a step by its address, as the router matches it (any case, a trailing slash)', () => {
    expect(stepAtPath(flow, '/subInfo')?.id).toBe('subInfo');
    expect(stepAtPath(flow, '/SUBINFO/')?.id).toBe('subInfo');
    expect(stepAtPath(flow, '/nope')).toBeUndefined();
  });

  it('starts at the step always open, ends at the submitted step', () => {
    expect(firstStep(flow)?.route).toBe('/whyapplying');
    expect(submittedStep(flow)?.route).toBe('/rap');
  });

  it('continues at the last step reached by number; below every number, at the first step', () => {
    expect(stepOfNumber(flow, 4)?.route).toBe('/dental');
    expect(stepOfNumber(flow, 10)?.route).toBe('/rap');
    expect(stepOfNumber(flow, 0)?.route).toBe('/whyapplying');
    // A number between steps (a step removed from the flow) goes to the one before it.
    const gap = { ...flow, steps: flow.steps.filter((s) => s.number !== 9) };
    expect(stepOfNumber(gap, 9)?.route).toBe('/other');
  });

  it('finds the plan page of a plan type', () => {
    expect(planStep(flow, 2)?.route).toBe('/dental');
    expect(planStep(flow, 4)).toBeUndefined();
  });
});
