import type { RemoteName, Stack } from './startStack.js';

export interface DevRebuiltNotice {
  event: 'rebuilt';
  remote: RemoteName;
  buildVersion: string;
  /** From the end of the build to the shell rendering with it (deploy + the shell's reload). */
  msSinceBuilt: number;
  /** Open pages the shell told. */
  pages: number;
}

export interface DevSiteOptions {
  /** The remote built from its sources in watch mode (`mf-search`…). */
  remote: RemoteName;
  /** Environment (default `process.env`): `PORT` (default 4300 when free, else any), `DATA_DIR` (default `.data-dev/<remote>`), other remotes' manifest URLs (`REMOTE_MF_*_URL`). */
  env?: Record<string, string | undefined>;
  /** Every output line. Default: stdout. */
  log?: (line: string) => void;
  /** After each rebuild the shell renders with. */
  onRebuilt?: (notice: DevRebuiltNotice) => void;
}

export interface DevSite {
  /** The site's URL (the shell), with a trailing slash. */
  url: string;
  remote: RemoteName;
  /** The remote's dev origin's manifest. */
  manifestUrl: string;
  stack: Stack;
  /** Stops the watcher, the site and the dev origin, and removes the dev build. */
  close(): Promise<void>;
}

/** The remotes taken from a URL the team set (`REMOTE_MF_*_URL`), by name; never `remote` itself. */
export function remotesFromEnvironment(remote: string, env: Record<string, string | undefined>): Record<string, string>;
/** Starts the dev site; resolves once the shell listens with the remote's first dev build. */
export function startDevSite(options: DevSiteOptions): Promise<DevSite>;
