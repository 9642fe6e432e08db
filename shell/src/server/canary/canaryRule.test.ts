import { describe, expect, it } from 'vitest';
import { DEFAULT_CANARY_RULE, evaluateCanary } from './canaryRule.js';

const traffic = (failures: number, views: number) => ({ failures, views });

describe('evaluateCanary', () => {
  it('continues without traffic', () => {
    const verdict = evaluateCanary({ stable: traffic(0, 0), canary: traffic(0, 0) });
    expect(verdict.decision).toBe('continue');
    expect(verdict.reason).toContain(`fewer than ${DEFAULT_CANARY_RULE.minCanaryViews} canary views`);
  });

  it('ends a canary whose every view failed while stable did not', () => {
    const verdict = evaluateCanary({ stable: traffic(0, 20), canary: traffic(20, 20) });
    expect(verdict.decision).toBe('end');
    expect(verdict.reason).toMatch(/^canary fails 100\.0 % of 20 views, stable 0\.0 % of 20: worse than stable \+ 2\.0 %/);
  });

  it('continues when both fail at the same rate', () => {
    expect(evaluateCanary({ stable: traffic(50, 1000), canary: traffic(50, 1000) }).decision).toBe('continue');
    expect(evaluateCanary({ stable: traffic(20, 20), canary: traffic(20, 20) }).decision).toBe('continue');
  });

  it('continues below the minimum number of canary views, however bad', () => {
    const verdict = evaluateCanary({ stable: traffic(0, 500), canary: traffic(19, 19) });
    expect(verdict).toEqual({ decision: 'continue', reason: 'canary 19/19 views failed, stable 0/500: fewer than 20 canary views' });
  });

  it('continues below the minimum number of canary failures', () => {
    const verdict = evaluateCanary({ stable: traffic(0, 500), canary: traffic(4, 40) });
    expect(verdict.decision).toBe('continue');
    expect(verdict.reason).toContain('fewer than 5 canary failures');
  });

  it('ends a clearly worse canary', () => {
    expect(evaluateCanary({ stable: traffic(5, 200), canary: traffic(30, 200) }).decision).toBe('end');
  });

  it('does not end a slightly worse canary (within the margin, or not significant)', () => {
    expect(evaluateCanary({ stable: traffic(50, 1000), canary: traffic(60, 1000) }).decision).toBe('continue');
    // 4 points worse, but only 30 canary views: could be chance.
    expect(evaluateCanary({ stable: traffic(5, 100), canary: traffic(5, 50) }).decision).toBe('continue');
  });

  it('needs a baseline: no stable views does not end a small canary sample', () => {
    expect(evaluateCanary({ stable: traffic(0, 0), canary: traffic(20, 20) }).decision).toBe('continue');
  });

  it('counts at most one failure per view and ignores nonsense counts', () => {
    const capped = evaluateCanary({ stable: traffic(0, 30), canary: traffic(90, 30) });
    expect(capped.reason).toMatch(/^canary fails 100\.0 % of 30 views/);
    expect(evaluateCanary({ stable: traffic(Number.NaN, -3), canary: traffic(-1, Number.POSITIVE_INFINITY) }).decision).toBe('continue');
  });

  it('takes overrides of the defaults', () => {
    const evidence = { stable: traffic(0, 10), canary: traffic(10, 10) };
    expect(evaluateCanary(evidence).decision).toBe('continue');
    expect(evaluateCanary(evidence, { minCanaryViews: 10 }).decision).toBe('end');
  });
});
