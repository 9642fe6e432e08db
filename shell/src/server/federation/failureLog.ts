import { isIslandErrorCode, SERVER_ISLAND_STAGE_CODES, type IslandErrorCode, type ServerIslandStage } from 'contracts';
import type { IslandFailure } from '../islandFailures/islandFailureCounts.js';

/**
 * What a server-side failure of `remote` counts as: its stable code and, as the failure of a
 * build, `version` (the one the page rendered) — unless the island only ran past its render budget
 * (`timeout`). The page then holds its placeholder and the browser mounts the island, but how long
 * a render takes says how busy this machine is (every build overruns under load, a build loaded
 * for its first page is cold) more than whether that build works, so it is counted for the health
 * view and not held against the build: under load the canary rule rolled back on it, or charged
 * the stable build. A render that throws or a build that cannot load still counts for its build.
 */
export function serverIslandFailure(remote: string, stage: ServerIslandStage, error: unknown, version: string | undefined): IslandFailure {
  const attributed = stage !== 'timeout' && version !== undefined;
  return { remote, source: 'server', code: serverFailureCode(stage, error), ...(attributed ? { version } : {}) };
}

/** The code of a server-side failure: the error's own stable code when it has one, else its stage's. */
export function serverFailureCode(stage: ServerIslandStage, error: unknown): IslandErrorCode {
  const own = (error as { code?: unknown } | null)?.code;
  return isIslandErrorCode(own) ? own : SERVER_ISLAND_STAGE_CODES[stage];
}

export interface FailureLogOptions {
  /** One line per remote per this many milliseconds. Default 60 000. */
  intervalMs?: number;
  /** Where lines go: failures to `error`, poll warnings to `warn` (else `error`). Default `console`. */
  log?: Pick<Console, 'error'> & Partial<Pick<Console, 'warn'>>;
  now?: () => number;
  /** Called for every failure, also those the log leaves out (the health view counts them). Default none. */
  onFailure?: (remote: string, stage: ServerIslandStage, error: unknown) => void;
  /**
   * Follow each written line with the error's stack and its causes' (`LOG_LEVEL=debug`). Default
   * false: one line per failure written, never a stack (a failing remote on a busy site would
   * otherwise write a stack per page view).
   */
  stacks?: boolean;
}

/** The error's stack and those of its causes (at most 5 deep), for debug logging. */
function stacksOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    parts.push(depth === 0 ? String((current as Error).stack ?? current) : `caused by: ${String((current as Error).stack ?? current)}`);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

/**
 * Logs a remote's server-side failures once per remote per interval (a page with twelve
 * islands of one remote, or a hundred requests a second, must not write a line per island), as one
 * line — no stack unless `stacks` (debug) — with the stable code first, the remote, the stage, and how many failures the previous
 * lines left out: `[shell] KHS-ISLAND-004 remote "mf-x" failed on the server (stage: compatibility): …`.
 */
export class FailureLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  /** When each remote's last poll warning was written. */
  private readonly lastPollLine = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly log: Pick<Console, 'error'> & Partial<Pick<Console, 'warn'>>;
  private readonly now: () => number;
  private readonly onFailure: FailureLogOptions['onFailure'];
  private readonly stacks: boolean;

  constructor(options: FailureLogOptions = {}) {
    this.onFailure = options.onFailure;
    this.stacks = options.stacks ?? false;
    this.intervalMs = options.intervalMs ?? 60_000;
    this.log = options.log ?? console;
    this.now = options.now ?? Date.now;
  }

  /**
   * A manifest poll of `remote` failed while its loaded build goes on rendering every page: no
   * island failed, so nothing is counted (`onFailure` is not called); one warning per remote per
   * interval says so (the health view shows the poll's error).
   */
  pollFailed(remote: string, error: unknown, loadedVersion: string | undefined): void {
    const now = this.now();
    const last = this.lastPollLine.get(remote);
    if (last !== undefined && now - last < this.intervalMs) return;
    this.lastPollLine.set(remote, now);
    const message = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
    const warn = this.log.warn ?? this.log.error;
    warn.call(this.log, `[shell] manifest poll of "${remote}" failed: ${message}; its islands go on rendering with the loaded build${loadedVersion ? ` ${loadedVersion}` : ''}`);
  }

  report(remote: string, stage: ServerIslandStage, error: unknown): void {
    this.onFailure?.(remote, stage, error);
    const stableCode = serverFailureCode(stage, error);
    const now = this.now();
    const entry = this.last.get(remote);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed += 1;
      return;
    }
    const more = entry?.suppressed ? ` (${entry.suppressed} more failures since the last line)` : '';
    this.last.set(remote, { at: now, suppressed: 0 });
    // The first line of the message only: the line stays one line whatever the remote threw.
    const message = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
    const line = `[shell] ${stableCode} remote "${remote}" failed on the server (stage: ${stage}): ${message}; its islands render placeholders${more}`;
    this.log.error(this.stacks ? `${line}\n${stacksOf(error)}` : line);
  }
}
