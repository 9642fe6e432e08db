import type { RemoteName } from './registry.js';

export type { RemoteName } from './registry.js';

/** The repository root. */
export const REPO_ROOT: string;

export interface StackOptions {
  /** Data folder (SQLite file, search data). Default: a fresh temporary folder, removed by `close()`. */
  dataDir?: string;
  /** Use each part's default port from the registry when it is free (`npm start`). Default false: free ports. */
  preferDefaultPorts?: boolean;
  /** Environment of the shell, over `process.env` and the stack's own settings. */
  env?: Record<string, string | undefined>;
  /** Extra environment for the search server process (limits, workers). */
  searchEnv?: Record<string, string>;
  /**
   * Serve each remote from a deploy target `<deployedOrigins>/<remote>` (tooling/deploy) instead of
   * its `dist`, deploying the current build there first (`npm start`: `.origins`). Default: `dist`.
   */
  deployedOrigins?: string;
  /** Receives every output line of the processes and the stack's own messages. Default: kept quiet (shown only if a process fails to start). */
  log?: (line: string) => void;
}

export interface Stack {
  /** Shell origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  /** Origin of each remote's static server. */
  remotes: Record<RemoteName, string>;
  /** The folder each remote's origin serves (its deploy target, or its `dist`). */
  originDirs: Record<RemoteName, string>;
  /** Base URL of the search server. */
  searchUrl: string;
  /** Origin sharing URLs and PDF links use (`PUBLIC_BASE_URL`, else the shell's own address). */
  baseUrl: string;
  dataDir: string;
  /** Resolves with the shell's exit code once it has exited. */
  shellExit: Promise<number>;
  /** Process id of the search server process (not its supervisor). */
  searchPid(): number;
  /** Stops the search server and its supervisor for good. */
  stopSearch(): Promise<void>;
  /** Kills the search server process (SIGKILL); resolves once the supervisor has it listening again. */
  killSearchServer(): Promise<{ pid: number; restartMs: number }>;
  /** Points a remote's origin at `dir` from now on (its own folder, `originDirs`, again when omitted). */
  serveRemote(name: RemoteName, dir?: string): void;
  /** Stops the shell, the search server and the remotes' servers (and removes a temporary data folder). */
  close(): Promise<void>;
}

/** A free TCP port on `host` (default 127.0.0.1). */
export function freePort(host?: string): Promise<number>;
/** `preferred` when it is free on `host`, else any free port. */
export function portOrFree(preferred: number, host?: string): Promise<number>;
/** Starts the whole site; see the module comment. */
export function startStack(options?: StackOptions): Promise<Stack>;
