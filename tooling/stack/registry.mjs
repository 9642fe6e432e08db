// The one list of the site's deployable parts. The shell's configuration (`shell/src/server/config.ts`),
// `npm start` (scripts/start.mjs) and the e2e harness (e2e/harness/stack.ts) all read it, so a remote
// or service is added, renamed or moved to another port here and nowhere else.

/** Each federated remote: its workspace folder, the variable holding its manifest URL, its default port. */
export const REMOTES = Object.freeze([
  Object.freeze({ name: 'mf-search', manifestEnv: 'REMOTE_MF_SEARCH_URL', defaultPort: 4310 }),
  Object.freeze({ name: 'mf-watchlist', manifestEnv: 'REMOTE_MF_WATCHLIST_URL', defaultPort: 4311 }),
  Object.freeze({ name: 'mf-survey', manifestEnv: 'REMOTE_MF_SURVEY_URL', defaultPort: 4312 }),
  Object.freeze({ name: 'mf-widgets', manifestEnv: 'REMOTE_MF_WIDGETS_URL', defaultPort: 4313 }),
]);

/**
 * Each server-side service the shell reaches: its name, the variables that point the shell at it
 * (host and port) and its default port.
 */
export const SERVICES = Object.freeze([
  // The Typesense-protocol search server (search-engine/), run as its own supervised process unless
  // TYPESENSE_HOST points at a real Typesense.
  Object.freeze({ name: 'search', hostEnv: 'TYPESENSE_HOST', portEnv: 'TYPESENSE_PORT', defaultPort: 8108 }),
]);

/** The shell's own default port (`PORT`). */
export const SHELL_DEFAULT_PORT = 4300;

/** The manifest URL a remote has when served on loopback at `origin` (default: its default port). */
export function defaultManifestUrl(remote, origin = `http://127.0.0.1:${remote.defaultPort}`) {
  return `${origin}/mf-manifest.json`;
}
