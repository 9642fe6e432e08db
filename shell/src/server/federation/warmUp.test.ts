import { describe, expect, it } from 'vitest';
import { WARM_UP_ATTEMPTS, warmUpRemotes } from './warmUp.js';

/** A federation whose remotes fail their warm-up as `outcomes` says, attempt by attempt (missing: loads). */
function federationFailing(outcomes: Record<string, boolean[]>) {
  const attempts = new Map<string, number>();
  const calls: Array<string | undefined> = [];
  return {
    calls,
    async preload(onError?: (remote: string, error: unknown) => void, remote?: string): Promise<void> {
      calls.push(remote);
      for (const name of Object.keys(outcomes).filter((each) => !remote || each === remote)) {
        const attempt = attempts.get(name) ?? 0;
        attempts.set(name, attempt + 1);
        if (outcomes[name]![attempt] === false) onError?.(name, new Error(`manifest of "${name}": The operation was aborted due to timeout`));
      }
    },
  };
}

const never = Array.from({ length: WARM_UP_ATTEMPTS }, () => false);

describe('warming the remotes up at start', () => {
  it('reports nothing when every remote loads, and tries no second time', async () => {
    const federation = federationFailing({ 'mf-search': [true], 'mf-survey': [true] });
    const reported: string[] = [];
    const waits: number[] = [];
    await warmUpRemotes(federation, (remote) => reported.push(remote), 2000, async (ms) => void waits.push(ms));
    expect(reported).toEqual([]);
    expect(waits).toEqual([]);
    expect(federation.calls).toEqual([undefined]);
  });

  it('a remote that times out while the shell starts is tried again with a growing pause, silently, until it loads', async () => {
    const federation = federationFailing({ 'mf-search': [false, false, false, true], 'mf-widgets': [false, true], 'mf-survey': [true] });
    const reported: string[] = [];
    const waits: number[] = [];
    await warmUpRemotes(federation, (remote) => reported.push(remote), 2000, async (ms) => void waits.push(ms));
    expect(reported).toEqual([]);
    expect(waits).toEqual([2000, 4000, 8000]);
    expect(federation.calls).toEqual([undefined, 'mf-search', 'mf-widgets', 'mf-search', 'mf-search']);
  });

  it('a remote still failing at its last attempt is reported once, with that failure; the others are not', async () => {
    const federation = federationFailing({ 'mf-search': never, 'mf-widgets': [false, true] });
    const reported: Array<[string, string]> = [];
    await warmUpRemotes(federation, (remote, error) => reported.push([remote, (error as Error).message]), 2000, async () => {});
    expect(reported).toEqual([['mf-search', 'manifest of "mf-search": The operation was aborted due to timeout']]);
    expect(federation.calls.filter((call) => call === 'mf-search')).toHaveLength(WARM_UP_ATTEMPTS - 1);
  });
});
