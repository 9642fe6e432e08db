import type { RemoteName, TeamServiceName } from './registry.js';
import type { HeldPort } from './heldPort.mjs';

export type { RemoteName, TeamServiceName } from './registry.js';

/** The repository root. */
export const REPO_ROOT: string;

export interface StackOptions {
  /** Data folder (SQLite file, search data). Default: a fresh temporary folder, removed by `close()`. */
  dataDir?: string;
  /**
   * Use each part's default port from the registry (`npm start`): all are checked before anything
   * starts, and a taken one fails the start with a `PortTakenError` naming it. Default false: free ports.
   */
  preferDefaultPorts?: boolean;
  /** Added to every default port with `preferDefaultPorts` (`npm start`: `STACK_PORT_OFFSET`), e.g. to run a second site beside the first. Default 0. */
  portOffset?: number;
  /**
   * The shell's port, held by the caller since it chose it (`holdPort()`: its number goes into
   * settings before the start, e.g. a `PUBLIC_BASE_URL` or a search node's allowed origins). The
   * shell listens on that very socket; the stack frees it when it closes (or fails to start).
   * Default: `env.PORT`, else the default port with `preferDefaultPorts`, else a free one, held by
   * the stack from its first step the same way.
   */
  shellPort?: HeldPort;
  /**
   * Environment of the shell, over `process.env` and the stack's own settings. Secrets in it (or in
   * `process.env`) win over the data folder's `secrets.json`; they reach only the processes that own them.
   */
  env?: Record<string, string | undefined>;
  /** Environment only the shell gets, no other process (the dev starter's `KHS_DEV_LOOP_TOKEN`). */
  shellEnv?: Record<string, string>;
  /** Extra environment for the team services' processes (never a secret: each gets only its own edge key). */
  serviceEnv?: Record<string, string>;
  /** Extra environment for the search server process (limits, workers). */
  searchEnv?: Record<string, string>;
  /**
   * Serve each remote from a deploy target `<deployedOrigins>/<remote>` (tooling/deploy) instead of
   * its `dist`, deploying the current build there first (`npm start`: `.origins`). Default: `dist`.
   */
  deployedOrigins?: string;
  /**
   * With `deployedOrigins`: serve what is live in each deploy target instead of deploying the
   * current `dist` there (`npm start -- --no-build`, tooling/deploy `keepLive`): `dist` is deployed
   * only to a target with nothing live, and one of another version during a canary stops the start,
   * naming the folder. Default false.
   */
  keepLive?: boolean;
  /**
   * Remotes the stack does not serve: their manifest URL (a remote in watch mode on its dev origin,
   * `npm run dev`, or a shared staging environment). No origin is started and no build is needed for
   * them; `remotes`/`originDirs` of the handle leave them out. Default: none (every remote from its origin).
   */
  remoteManifests?: Partial<Record<RemoteName, string>>;
  /**
   * Remotes served from a deploy target someone else keeps up to date (the dev starter's dev origin),
   * by name: their origin serves that folder as it is (no build needed, nothing deployed there).
   * Default: none.
   */
  remoteOrigins?: Partial<Record<RemoteName, string>>;
  /** Receives every output line of the processes and the stack's own messages. Default: kept quiet (shown only if a process fails to start). */
  log?: (line: string) => void;
  /**
   * Told of each step of the start as it ends: its name (`startOrigins`, `origin mf-search`, `build
   * shell`, `service survey`, `startShell`, …), how long it took and when it began, in ms from the
   * start (`measureStart.mjs` prints them). Default: none.
   */
  onPhase?: (phase: StackPhase) => void;
}

/** One step of a stack's start (`StackOptions.onPhase`). */
export interface StackPhase {
  name: string;
  /** How long it took (ms, wall clock). */
  ms: number;
  /** When it began, in ms since the start began. */
  startMs: number;
}

export interface Stack {
  /** Shell origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  /** Origin of each remote's static server (every remote not in `remoteManifests`). */
  remotes: Record<RemoteName, string>;
  /** The folder each remote's origin serves (its deploy target, or its `dist`; every remote not in `remoteManifests`). */
  originDirs: Record<RemoteName, string>;
  /** Base URL of the search server. */
  searchUrl: string;
  /** Origin sharing URLs and PDF links use (`PUBLIC_BASE_URL`, else the shell's own address). */
  baseUrl: string;
  dataDir: string;
  /** The data folder's `secrets.json` (mode 0600) with the secrets the environment did not set. */
  secretsFile: string;
  /** Resolves (0) once the shell has ended for good: `close()`. A crashed shell is restarted, not ended. */
  shellExit: Promise<number>;
  /** Process id of every part the stack runs now, by name (`shell`, `search`, each remote, each team service); undefined while one restarts. */
  pids(): Record<string, number | undefined>;
  /** Process id of the shell. */
  shellPid(): number;
  /** Process id of a remote's static origin. */
  originPid(name: RemoteName): number;
  /** Resolves with the pid of the next process of `part` (`shell`, `search`, a remote or a team service) that listens: a restart. */
  nextStart(part: 'shell' | 'search' | RemoteName | TeamServiceName): Promise<number>;
  /** Process id of the search server process (supervised by the stack itself). */
  searchPid(): number;
  /** Stops the search server for good (no restart). */
  stopSearch(): Promise<void>;
  /** Kills the search server process (SIGKILL); resolves once the supervisor has it listening again. */
  killSearchServer(): Promise<{ pid: number; restartMs: number }>;
  /** URL of a team service the stack runs. */
  serviceUrl(name: TeamServiceName): string;
  /** Process id of a team service the stack runs. */
  servicePid(name: TeamServiceName): number;
  /** Stops a team service (the shell keeps running); `startService` brings it back on the same port. */
  stopService(name: TeamServiceName): Promise<void>;
  /**
   * (Re)starts a team service on its port — stopping it first if it runs — from its slice, or from
   * `sliceDir` (a changed copy of the slice: a redeploy of that service alone).
   */
  startService(name: TeamServiceName, sliceDir?: string): Promise<{ pid: number; url: string }>;
  /** Points a remote's origin at `dir` from now on (its own folder, `originDirs`, again when omitted). */
  serveRemote(name: RemoteName, dir?: string): void;
  /** Stops the shell, the search server and the remotes' servers (and removes a temporary data folder). */
  close(): Promise<void>;
}

export interface TeamServiceStartOptions {
  /** Environment over `process.env` (DATA_DIR, DATABASE_URL, DATABASE_SCHEMA, COOKIE_SECRET…). */
  env?: Record<string, string | undefined>;
  /** Port to listen on. Default 0: a free one. */
  port?: number;
  /** A copy of the service's slice folder to run instead of the slice itself. */
  sliceDir?: string;
  log?: (line: string) => void;
}

export interface RunningTeamService {
  name: TeamServiceName;
  /** Origin without trailing slash, e.g. `http://127.0.0.1:41235`. */
  url: string;
  port: number;
  pid: number;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts one team service as its own process (not supervised; it ends with this process); resolves once it listens. */
export function startTeamService(name: TeamServiceName, options?: TeamServiceStartOptions): Promise<RunningTeamService>;
export { holdPort, PortInUseError, type HeldPort } from './heldPort.mjs';
/**
 * A free TCP port on `host` (default 127.0.0.1), free when it answers: another process may take it
 * before it is bound again. For a port to be named before a process listens, use `holdPort()`.
 */
export function freePort(host?: string): Promise<number>;
/** `preferred` when it is free on `host`, else any free port. */
export function portOrFree(preferred: number, host?: string): Promise<number>;
/** A start found ports it needs taken: `taken` names each with the part that wanted it. */
export class PortTakenError extends Error {
  readonly taken: { port: number; part: string }[];
}
/**
 * The whole environment of a team service the stack runs: `env` and `serviceEnv` without any of the
 * stack's secrets, loopback, `port`, `dataDir`, and only its own edge key from `secrets`; the service
 * that writes the search index (`writesSearchIndex`) also gets `searchTarget` (TYPESENSE_HOST/PORT/
 * PROTOCOL, default none) and the admin key `TYPESENSE_API_KEY`.
 */
export function teamServiceEnvironment(
  service: import('./registry.js').TeamServiceEntry,
  parts: { env: Record<string, string | undefined>; serviceEnv?: Record<string, string>; secrets: Record<string, string>; port: number; dataDir: string; searchTarget?: Record<string, string> },
): Record<string, string | undefined>;
/** The secrets the shell gets: all of `secrets` but the search server's admin key (`TYPESENSE_API_KEY`) and the editors' token (`EDITOR_TOKEN`, the search slice's service alone reads it). */
export function shellSecrets(secrets: Record<string, string>): Record<string, string>;
/** Starts the whole site; see the module comment. */
export function startStack(options?: StackOptions): Promise<Stack>;
