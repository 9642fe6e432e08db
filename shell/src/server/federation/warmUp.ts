import type { ServerFederation } from './serverFederation.js';

/** Attempts of the warm-up at start: the first, then after 1, 2, 4 and 8 × `retryAfterMs` (30 s with the 2 s poll). */
export const WARM_UP_ATTEMPTS = 5;

/** Waits `ms` without keeping the process alive for it. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Loads every remote's server modules at start, so the first pages render within the budget. It
 * runs while the shell itself starts and just after (its modules compile, the articles are read,
 * the routes are built), on a machine that is often busy with the rest of the site starting too,
 * and each hop has `REMOTE_SERVER_TIMEOUT_MS` (1 s, a page's deadline) measured on that busy event
 * loop: a first attempt that times out says nothing about the remote (every start logged
 * `KHS-ISLAND-001 … aborted due to timeout` for all four). So a remote that fails is tried again
 * after `retryAfterMs` (a poll interval), then after twice that, and so on, `WARM_UP_ATTEMPTS` in
 * all, and only a failure of its last attempt goes to `report` (logged and counted): a start whose
 * remotes are there logs no failure, one that really is unreachable is still said, once.
 */
export async function warmUpRemotes(
  federation: Pick<ServerFederation, 'preload'>,
  report: (remote: string, error: unknown) => void,
  retryAfterMs: number,
  wait: (ms: number) => Promise<void> = pause,
): Promise<void> {
  let failed: string[] = [];
  await federation.preload((remote) => failed.push(remote));
  for (let attempt = 2; attempt <= WARM_UP_ATTEMPTS && failed.length > 0; attempt += 1) {
    await wait(retryAfterMs * 2 ** (attempt - 2));
    const last = attempt === WARM_UP_ATTEMPTS;
    const again: string[] = [];
    await Promise.all(failed.map((remote) => federation.preload((name, error) => (last ? report(name, error) : again.push(name)), remote)));
    failed = again;
  }
}
