// The site's deployable parts, discovered from the slices' manifests (`<slice>/slice.json`, checked
// against `slice.schema.json` by sliceManifests.mjs): the shell's configuration
// (`shell/src/server/config.ts`), `npm start` (scripts/start.mjs) and the e2e harness
// (e2e/harness/stack.ts) all read it, so a slice joins, is renamed or moves to another port in its
// own manifest and nowhere else. A malformed manifest stops whatever imports this module, naming the
// file and the field.
import path from 'node:path';
import { readSliceManifests } from './sliceManifests.mjs';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Every slice's manifest, sorted by folder name. */
export const SLICES = deepFreeze(readSliceManifests(REPO_ROOT));

/** Each federated remote: its workspace folder, the variable holding its manifest URL, its default port, its islands. */
export const REMOTES = Object.freeze(
  SLICES.filter((slice) => slice.remote)
    .map((slice) => Object.freeze({ name: slice.name, manifestEnv: slice.remote.manifestEnv, defaultPort: slice.remote.port, islands: slice.remote.islands }))
    .sort((a, b) => a.defaultPort - b.defaultPort),
);

/**
 * Each server-side service the shell reaches: its name, the variables that point the shell at it
 * (host and port) and its default port.
 */
export const SERVICES = Object.freeze([
  // The Typesense-protocol search server (search-engine/), run as its own supervised process unless
  // TYPESENSE_HOST points at a real Typesense.
  Object.freeze({ name: 'search', hostEnv: 'TYPESENSE_HOST', portEnv: 'TYPESENSE_PORT', defaultPort: 8108 }),
]);

/**
 * Each team's own service (its slice manifest's `service`): the service's name, its slice folder,
 * the entry its `npm start` runs (relative to the slice), the variable holding its URL in the
 * shell's configuration (a comma-separated list balances over several instances), its default port,
 * the variable holding its edge key (the secret the shell sends with every forwarded request and the
 * service checks: one per service, so no service holds another's key or the shell's cookie secret),
 * its edge policy (what the shell's edge does with its calls, `readEdgePolicy`), and what else it
 * may read (`writesSearchIndex`: the search server's admin key; `readsEditorToken`). The shell
 * reaches it through its reverse proxy; the stack starter runs it as its own supervised process.
 */
export const TEAM_SERVICES = Object.freeze(
  SLICES.filter((slice) => slice.service)
    .map(({ name: slice, service }) =>
      Object.freeze({
        name: service.name,
        slice,
        entry: service.entry,
        urlEnv: service.urlEnv,
        defaultPort: service.port,
        edgeKeyEnv: service.edgeKeyEnv,
        edgePolicy: service.edgePolicy,
        deprecatedEnv: service.deprecatedEnv ?? {},
        writesSearchIndex: service.reads.includes('searchAdminKey'),
        readsEditorToken: service.reads.includes('editorToken'),
      }),
    )
    .sort((a, b) => a.defaultPort - b.defaultPort),
);

function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * `env` with each former variable name a manifest still accepts (`service.deprecatedEnv`, for one
 * version) copied to its new name when only the old one is set; `warn` gets one deprecation line
 * per old name in use. The caller's object is not changed.
 * @param {Record<string, string | undefined>} env
 * @param {(line: string) => void} [warn]
 */
export function withDeprecatedEnv(env, warn = (line) => console.warn(line)) {
  const result = { ...env };
  for (const service of TEAM_SERVICES) {
    for (const [oldName, newName] of Object.entries(service.deprecatedEnv)) {
      if (!env[oldName]?.trim()) continue;
      warn(`[deprecated] ${oldName} is read for one more version: set ${newName} instead (the ${service.name} service, ${service.slice}/slice.json)`);
      if (!env[newName]?.trim()) result[newName] = env[oldName];
    }
  }
  return result;
}

/**
 * Variables of the whole site, not of one slice: any part may read them (the shell's configuration
 * documents them), so a slice listing one in its manifest's `env` does not make it that slice's.
 */
export const SITE_ENV = Object.freeze(['CONTENT_DIR', 'PUBLIC_BASE_URL', 'SITE_NAME', 'OPERATOR_TOKEN', 'EDITOR_TOKEN']);

/** The shell's own default port (`PORT`). */
export const SHELL_DEFAULT_PORT = 4300;

/** The manifest URL a remote has when served on loopback at `origin` (default: its default port). */
export function defaultManifestUrl(remote, origin = `http://127.0.0.1:${remote.defaultPort}`) {
  return `${origin}/mf-manifest.json`;
}

/** The URL a team service has when it runs on loopback on its default port. */
export function defaultServiceUrl(service) {
  return `http://127.0.0.1:${service.defaultPort}`;
}

/**
 * The edge policy `service` declares (its slice manifest's `service.edgePolicy`, checked in detail by
 * the shell at start, which refuses to start on a malformed one). A file, not a call to the running
 * service: the edge's routes, limits and checks are set before the shell listens, so a service that
 * is down at that moment still has its calls answered (503), not unknown (404).
 */
export function readEdgePolicy(service) {
  return service.edgePolicy;
}

/** The team service `name`; throws for a name the registry does not list. */
export function teamService(name) {
  const service = TEAM_SERVICES.find((entry) => entry.name === name);
  if (!service) throw new Error(`No team service named "${name}" in the stack registry`);
  return service;
}

/**
 * The origins whose pages query the search server from the browser, for its
 * `SEARCH_ALLOWED_ORIGINS` (only they get CORS answers to searches): the shell on loopback
 * (`127.0.0.1` and `localhost`, when its port is known), its public origin (`PUBLIC_BASE_URL`),
 * and each remote's origin (its standalone page). Duplicates and unparsable entries are dropped.
 */
export function searchPageOrigins({ shellPort, publicBaseUrl, remoteOrigins = [] }) {
  const origins = new Set();
  const add = (value) => {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    } catch {
      // Not a URL: nothing a browser page could have as its origin.
    }
  };
  if (Number(shellPort) > 0) for (const host of ['127.0.0.1', 'localhost']) add(`http://${host}:${shellPort}`);
  if (publicBaseUrl) add(publicBaseUrl);
  for (const origin of remoteOrigins) add(origin);
  return [...origins];
}
