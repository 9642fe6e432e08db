// Which build of a remote renders one request: a chain of small selection plugins (preview
// cookie, canary assignment, …) that each may replace the choice the plugins before them made.
// The chosen build is rendered on the server and pinned in the page (the browser loads the same).

/** Why a request renders a remote at a build. */
export type VersionReason = 'preview' | 'canary' | 'stable' | 'live';

/** The build of one remote a request renders with. */
export interface VersionChoice {
  /**
   * The remote's `buildVersion` (`0.1.0+1a2b3c4d5e6f`), loaded from `versions/<buildVersion>/mf-manifest.json`
   * at its origin; `null`: whatever the remote's live manifest names (no plugin chose).
   */
  version: string | null;
  reason: VersionReason;
  /**
   * Whether the page may be kept by a shared cache. `false` for a choice that depends on the
   * visitor (a preview: `private, no-store`; a canary side: `private`).
   */
  cacheable: boolean;
}

/** What a selection plugin may read of the request (no Fastify types: plugins are tested alone). */
export interface SelectionContext {
  /** The request's cookies, already parsed (unsigned values as sent). */
  cookies: Readonly<Record<string, string | undefined>>;
  /** The request's headers, lower-case names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Path and query of the request. */
  url: string;
  /** Milliseconds since the epoch (expiries are checked against it). */
  now: number;
  /**
   * Sets a cookie on the answer (a canary's first assignment of a visitor). Values are sent as
   * given: sign them yourself when they must not be forged.
   */
  setCookie(name: string, value: string, options: SelectionCookieOptions): void;
}

/** Cookie attributes a selection plugin may set. */
export interface SelectionCookieOptions {
  /** Seconds; absent: a session cookie. */
  maxAge?: number;
  /** Default `/`. */
  path?: string;
  /** Default true. */
  httpOnly?: boolean;
  /** Default `lax`. */
  sameSite?: 'lax' | 'strict';
}

/**
 * One link of the chain: given the request, the remote's name and the choice so
 * far, returns the choice to go on with (`current` itself to leave it). Synchronous: it runs for
 * every remote of every page, so it must only read what is already in memory (a rollout file is
 * polled, not fetched per request).
 */
export interface VersionSelectionPlugin {
  /** Names the plugin in logs and tests (`khs-preview`). */
  name: string;
  select(context: SelectionContext, remote: string, current: VersionChoice): VersionChoice;
}

/** Where every chain starts: the live manifest, shared-cacheable. */
export const LIVE_CHOICE: Readonly<VersionChoice> = Object.freeze({ version: null, reason: 'live', cacheable: true });

/**
 * Runs `plugins` in order for `remote`, starting from the live build: a later plugin sees (and
 * may override) what the earlier ones chose, so list them from the most general to the most
 * specific — canary, then preview (a preview beats the visitor's canary side). A plugin that
 * throws is skipped (its choice is not made; the page still renders).
 */
export function selectVersion(
  plugins: readonly VersionSelectionPlugin[],
  context: SelectionContext,
  remote: string,
  onError: (plugin: string, error: unknown) => void = () => {},
): VersionChoice {
  let choice: VersionChoice = LIVE_CHOICE;
  for (const plugin of plugins) {
    try {
      choice = plugin.select(context, remote, choice);
    } catch (error) {
      onError(plugin.name, error);
    }
  }
  return choice;
}

/** The choices of a page's remotes, and what they mean for the answer's caching. */
export interface PageVersionChoices {
  /** Per remote name. Remotes with the live choice are included. */
  choices: ReadonlyMap<string, VersionChoice>;
  /** `Cache-Control` the page must carry instead of the shared one, or undefined when every choice is cacheable. */
  cacheControl: string | undefined;
}

/** `Cache-Control` of a page rendered under a preview: nobody else may see it, nothing keeps it. */
export const PREVIEW_CACHE_CONTROL = 'private, no-store';
/** `Cache-Control` of a page that depends on the visitor's canary side. */
export const CANARY_CACHE_CONTROL = 'private';

/** Runs the chain for every remote of a page; the strictest `Cache-Control` any choice needs. */
export function selectPageVersions(
  plugins: readonly VersionSelectionPlugin[],
  context: SelectionContext,
  remotes: readonly string[],
  onError?: (plugin: string, error: unknown) => void,
): PageVersionChoices {
  const choices = new Map<string, VersionChoice>();
  let cacheControl: string | undefined;
  for (const remote of remotes) {
    const choice = selectVersion(plugins, context, remote, onError);
    choices.set(remote, choice);
    if (!choice.cacheable) {
      cacheControl = choice.reason === 'preview' || cacheControl === PREVIEW_CACHE_CONTROL ? PREVIEW_CACHE_CONTROL : CANARY_CACHE_CONTROL;
    }
  }
  return { choices, cacheControl };
}

/** What a build version looks like (`0.1.0+1a2b3c4d5e6f`): safe as one path segment as it is. */
const BUILD_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$/;

/** Whether `value` can be a build version (a cookie or a link may carry anything). */
export function isBuildVersion(value: unknown): value is string {
  return typeof value === 'string' && BUILD_VERSION.test(value) && !value.includes('..');
}

/**
 * The URL of one published build's own manifest at a remote's origin: `versions/<buildVersion>/mf-manifest.json`
 * beside the live manifest (tooling/deploy writes each build there, with paths relative to its folder).
 * Throws on a value that is no build version (it would leave the versions folder).
 */
export function versionManifestUrl(liveManifestUrl: string, version: string): string {
  if (!isBuildVersion(version)) throw new RangeError(`not a build version: ${JSON.stringify(version).slice(0, 80)}`);
  return new URL(`versions/${version}/mf-manifest.json`, liveManifestUrl).href;
}
