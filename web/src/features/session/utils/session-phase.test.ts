import { describe, expect, it } from 'vitest';
import { IDLE_LIMIT_MS, sessionPhase } from './session-phase';

const start = 1_000_000;

describe('sessionPhase', () => {
  it('is active until 60 seconds before the 30-minute limit', () => {
    expect(sessionPhase(start, start)).toEqual({ kind: 'active' });
    expect(sessionPhase(start + IDLE_LIMIT_MS - 60_001, start)).toEqual({ kind: 'active' });
  });

  it('counts down the last 60 seconds', () => {
    expect(sessionPhase(start + IDLE_LIMIT_MS - 60_000, start)).toEqual({ kind: 'warning', secondsLeft: 60 });
    expect(sessionPhase(start + IDLE_LIMIT_MS - 1_500, start)).toEqual({ kind: 'warning', secondsLeft: 2 });
    expect(sessionPhase(start + IDLE_LIMIT_MS - 1, start)).toEqual({ kind: 'warning', secondsLeft: 1 });
  });

  it('expires at 30 minutes', () => {
    expect(sessionPhase(start + IDLE_LIMIT_MS, start)).toEqual({ kind: 'expired' });
  });

  it("follows the server's limit when it is another (tests run it in seconds)", () => {
    expect(sessionPhase(start + 9_000, start, 70_000)).toEqual({ kind: 'active' });
    expect(sessionPhase(start + 10_000, start, 70_000)).toEqual({ kind: 'warning', secondsLeft: 60 });
    expect(sessionPhase(start + 70_000, start, 70_000)).toEqual({ kind: 'expired' });
  });
});
