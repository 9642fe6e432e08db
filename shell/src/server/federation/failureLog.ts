/** Where a remote failed on the server. */
export type ServerIslandStage = 'manifest' | 'load' | 'version' | 'render' | 'timeout';

export interface FailureLogOptions {
  /** One line per remote per this many milliseconds. Default 60 000. */
  intervalMs?: number;
  log?: Pick<Console, 'error'>;
  now?: () => number;
  /** Called for every failure, also those the log leaves out (the health view counts them). Default none. */
  onFailure?: (remote: string, stage: ServerIslandStage, error: unknown) => void;
}

/**
 * Logs a remote's server-side failures once per remote per interval (a page with twelve
 * watchlist buttons, or a hundred requests a second, must not write a line per island), with
 * the remote's name, the stage and how many failures the previous lines left out.
 */
export class FailureLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  private readonly intervalMs: number;
  private readonly log: Pick<Console, 'error'>;
  private readonly now: () => number;
  private readonly onFailure: FailureLogOptions['onFailure'];

  constructor(options: FailureLogOptions = {}) {
    this.onFailure = options.onFailure;
    this.intervalMs = options.intervalMs ?? 60_000;
    this.log = options.log ?? console;
    this.now = options.now ?? Date.now;
  }

  report(remote: string, stage: ServerIslandStage, error: unknown): void {
    this.onFailure?.(remote, stage, error);
    const now = this.now();
    const entry = this.last.get(remote);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed += 1;
      return;
    }
    const more = entry?.suppressed ? ` (${entry.suppressed} more failures since the last line)` : '';
    this.last.set(remote, { at: now, suppressed: 0 });
    const message = error instanceof Error ? error.message : String(error);
    this.log.error(`[shell] remote "${remote}" failed on the server (stage: ${stage}): ${message}; its islands render placeholders${more}`);
  }
}
