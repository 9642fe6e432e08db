import type { RemoteDefinition } from 'contracts';
import { parseRollout, rolloutUrl, type Rollout } from './rollout.js';

export interface RolloutPollerOptions {
  remotes: readonly RemoteDefinition[];
  /** How often each origin's `rollout.json` is read, ms. Default 2000 (like the manifests). */
  intervalMs?: number;
  /** One request's deadline, ms. Default 1000. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Where a broken rollout file is told (once per change of state). Default `console.warn`. */
  log?: (line: string) => void;
}

/**
 * Keeps each remote's canary split from its origin in memory (`rollout.json` beside the live
 * manifest, revalidated like it), so the selection plugin and the monitor read it synchronously.
 * No file (404) = no canary. An origin that does not answer keeps the last split read; a file
 * that is not a valid split counts as none (no visitor is sent to a made-up version).
 */
export class RolloutPoller {
  private readonly rollouts = new Map<string, Rollout | null>();
  private readonly problems = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly log: (line: string) => void;

  constructor(private readonly options: RolloutPollerOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.log = options.log ?? ((line) => console.warn(line));
  }

  /** The last split read for `remote`; null: none; undefined: not read yet. */
  rolloutOf(remote: string): Rollout | null | undefined {
    return this.rollouts.get(remote);
  }

  /** Reads every remote's file once. */
  async pollOnce(): Promise<void> {
    await Promise.all(this.options.remotes.map((remote) => this.pollRemote(remote)));
  }

  /** Polls every `intervalMs` until `stop()`; the first read starts at once. */
  start(): Promise<void> {
    const first = this.pollOnce();
    this.timer = setInterval(() => void this.pollOnce(), this.options.intervalMs ?? 2000);
    this.timer.unref();
    return first;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async pollRemote(remote: RemoteDefinition): Promise<void> {
    const url = rolloutUrl(remote.entry);
    let response: Response;
    try {
      response = await this.fetchImpl(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 1000), headers: { accept: 'application/json' } });
    } catch (error) {
      this.problem(remote.name, `[shell] canary split of "${remote.name}" not read (${(error as Error).message}); keeping the last one`);
      return;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      this.set(remote.name, null);
      return;
    }
    if (!response.ok) {
      await response.body?.cancel();
      this.problem(remote.name, `[shell] canary split of "${remote.name}": ${url} answered ${response.status}; keeping the last one`);
      return;
    }
    const rollout = parseRollout(await response.json().catch(() => undefined));
    if (!rollout) {
      this.problem(remote.name, `[shell] canary split of "${remote.name}": ${url} is not a valid rollout file; no canary until it is`);
      this.rollouts.set(remote.name, null);
      return;
    }
    this.set(remote.name, rollout);
  }

  private set(remote: string, rollout: Rollout | null): void {
    this.rollouts.set(remote, rollout);
    this.problems.delete(remote);
  }

  private problem(remote: string, line: string): void {
    if (this.problems.get(remote) === line) return;
    this.problems.set(remote, line);
    this.log(line);
  }
}
