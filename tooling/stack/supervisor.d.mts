/** Every timing of supervision (see the module comment and the tooling/stack README). */
export interface SupervisionTimings {
  /** First restart delay after an exit; doubled per crash in a row. Default 250 ms. */
  initialBackoffMs: number;
  /** Longest restart delay. Default 10 s. */
  maxBackoffMs: number;
  /** A child that ran this long restarts after `initialBackoffMs` again. Default 30 s. */
  healthyAfterMs: number;
  /** Pause between two health checks of a listening child. Default 1 s. */
  healthIntervalMs: number;
  /** How long one health check waits for an answer. Default 3 s. */
  healthTimeoutMs: number;
  /** Missed health checks in a row after which the child is killed and restarted. Default 3. */
  healthFailures: number;
  /** How long a (re)started child may take to report `listening`, not counting the time it waited for a CPU (`startTimeSpentMs`). Default 60 s. */
  startTimeoutMs: number;
  /** SIGTERM, then SIGKILL after this long (`close`). Default 5 s. */
  stopTimeoutMs: number;
}

/** The defaults, in one place. */
export const SUPERVISION_TIMINGS: Readonly<SupervisionTimings>;
/** The `--import` preload (a data: URL) that stops a child when its supervisor's IPC channel closes. */
export const EXIT_WITH_PARENT: string;

/** The JSON status line a child printed when it listened, with its pid and the restart count. */
export interface ListeningStatus {
  event: 'listening';
  pid: number;
  restarts: number;
  url?: string;
  port?: number;
  [key: string]: unknown;
}

export interface SuperviseOptions {
  /** For log lines and errors, e.g. `the survey service`. */
  name: string;
  /** Arguments of node before the script (flags, `--import` loaders). Default none. */
  nodeArgs?: string[];
  /** The script and its arguments. */
  args: string[];
  /** The child's whole environment. Default `process.env`. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Health check URL (any HTTP answer counts as alive), or a function of the listening status. Default: none (exits only). */
  healthUrl?: string | ((status: ListeningStatus) => string);
  /** Every line the child prints (but status lines) and the supervisor's own events. Default: dropped. */
  log?: (line: string) => void;
  /** JSON status lines other than `listening` (and `listening` too). */
  onStatus?: (status: { event: string; [key: string]: unknown }) => void;
  /** Overrides of `SUPERVISION_TIMINGS`. */
  timings?: Partial<SupervisionTimings>;
  /**
   * A port held for the child (`holdPort`, `@khs/stack/held-port`): every (re)start inherits its
   * listening socket as fd 4 with `LISTEN_FD=4` in its environment and listens on it; between starts
   * it is held again (503 with `Retry-After`). `close()` frees it. Default: none.
   */
  heldPort?: import('./heldPort.mjs').HeldPort;
}

export interface Supervised {
  name: string;
  /** The listening child's pid; undefined while it (re)starts. */
  pid(): number | undefined;
  /** The listening child's status line; undefined while it (re)starts. */
  status(): ListeningStatus | undefined;
  /** Restarts so far. */
  restarts(): number;
  /** The child's last 8 KB of output. */
  output(): string;
  /** Resolves with the status of the next child that listens. */
  nextStart(): Promise<ListeningStatus>;
  /** Sends a message on the child's IPC channel (dropped while none runs). */
  send(message: unknown): void;
  /** Changes what the next (re)starts run: arguments, and environment merged over the current one. */
  update(next: { nodeArgs?: string[]; args?: string[]; env?: Record<string, string | undefined>; cwd?: string }): void;
  /** Stops supervising: SIGTERM to the child, SIGKILL after `stopTimeoutMs`; resolves once it exited. */
  close(): Promise<void>;
}

/**
 * Runs a node child under supervision (restart with back-off on exit, replacement when its health
 * check stops answering, stopped when this process ends); resolves once it first listens, rejects
 * when that first start fails.
 */
export function supervise(options: SuperviseOptions): Promise<Supervised>;
/** A child's start time so far: wall-clock `elapsedMs` less its main thread's wait for a CPU (Linux schedstat; else the wall clock). */
export function startTimeSpentMs(pid: number | undefined, elapsedMs: number, readSchedstat?: (pid: number) => string): { spentMs: number; waitedMs: number };
