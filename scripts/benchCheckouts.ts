// The checkouts a benchmark measures in one run: this one and, when BENCH_BASELINE_ROOT names one,
// a built checkout of an older commit (`git worktree add --detach /tmp/baseline <commit>`, then
// `npm ci` and `npm run build` there; `../shared` beside it). Each runs as its own whole stack
// (shell, remotes' static servers, search server), started by its own e2e harness
// (`<root>/e2e/harness/stack.ts`), so the baseline runs its commit's code, registry and builds.
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type Stack } from '../e2e/harness/stack.js';

/** What a benchmark reads of a stack: an older harness's handle has these too. */
export type BenchStack = Pick<Stack, 'url' | 'remotes' | 'close'>;

export interface BenchCheckout {
  /** `baseline` (BENCH_BASELINE_ROOT) or `this build`. */
  name: string;
  root: string;
}

/** The baseline first, when BENCH_BASELINE_ROOT is set (else says so on stdout), then this checkout. */
export function benchCheckouts(): BenchCheckout[] {
  const baseline = process.env.BENCH_BASELINE_ROOT;
  if (!baseline) console.log('(no BENCH_BASELINE_ROOT: this checkout only; set it to a built checkout of an older commit for before/after in one run)');
  return [...(baseline ? [{ name: 'baseline', root: path.resolve(baseline) }] : []), { name: 'this build', root: REPO_ROOT }];
}

/** Starts `root`'s whole site with `root`'s own e2e harness; `env`: extra environment for its shell. */
export async function startStackOf(root: string, env: Record<string, string>): Promise<BenchStack> {
  const harness = (await import(path.join(root, 'e2e/harness/stack.ts'))) as { startStack(options?: { env?: Record<string, string> }): Promise<BenchStack> };
  return harness.startStack({ env });
}

/** Indexed items in turn: round 0, 2, 4… in order, round 1, 3, 5… in reverse, so no checkout is always first on a machine whose load drifts. */
export function inTurn<T>(items: T[], round: number): Array<[number, T]> {
  const indexed = items.map((item, index): [number, T] => [index, item]);
  return round % 2 ? indexed.reverse() : indexed;
}

/** The 1-, 5- and 15-minute load averages, e.g. `7.0 / 6.9 / 8.9`. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
}
