import { defaultArticlesDir, PREVIEW_SECRET_MIN_LENGTH } from '@khs/content';
import { PREVIEW_SECRET_ENV, PREVIEW_SECRET_MIN_LENGTH as REMOTE_PREVIEW_SECRET_MIN_LENGTH } from '@khs/deploy/preview-link';
import { readEnvInteger } from '@khs/env-integer';
import path from 'node:path';
import { REMOTES, SHELL_DEFAULT_PORT, SLICES, TEAM_SERVICES, defaultManifestUrl, defaultServiceUrl, readEdgePolicy, withDeprecatedEnv, type TeamServiceName } from '@khs/stack/registry';
import { DEVELOPMENT_COOKIE_SECRET, developmentEdgeKey, isLoopbackHost, MIN_EDGE_KEY_LENGTH } from '@khs/team-service/edge';
import type { RemoteDefinition } from 'contracts';
import { EdgePolicyError, parseEdgePolicy, type EdgePolicy } from './proxy/edgePolicy.js';
import { readSlotFills } from './slots/slotFills.js';
import { readSlicePages } from './slicePages/slicePages.js';
import { normalizePublicBaseUrl, parseAllowedHosts } from './security/linkOrigin.js';
import { parseTrustProxy, type TrustProxySetting } from './security/trustProxy.js';

/** Every remote the shell knows (the registry in tooling/stack, shared with `npm start` and the e2e harness). */
export const KNOWN_REMOTES = REMOTES;

/** Configuration of the shell server, read from environment variables (see README). */
export interface ShellConfig {
  /** `HOST`, default `127.0.0.1`. */
  host: string;
  /** `PORT`, default `4300` (`SHELL_DEFAULT_PORT`); `0` picks a free port. */
  port: number;
  /**
   * `LISTEN_FD`: an inherited listening socket to serve on instead of binding `HOST`/`PORT` (the
   * stack starter holds the shell's port from the moment it names it: tooling/stack/heldPort.mjs).
   * Default none.
   */
  listenFd: number | undefined;
  /** `SITE_NAME`, default `KHS Competence`. */
  siteName: string;
  /**
   * `PUBLIC_BASE_URL`: origin (optionally with a path) of sharing URLs and PDF links, without
   * trailing slash. Unset: the address the server listens on (development only; printed at start).
   */
  publicBaseUrl: string | undefined;
  /** `ALLOWED_HOSTS`: further hosts (comma-separated) whose requests get links on their own host. Default none. */
  allowedHosts: string[];
  /** `TRUST_PROXY`: proxies whose `X-Forwarded-*` headers are believed (hops or addresses). Default off. */
  trustProxy: TrustProxySetting;
  /** `REMOTE_MF_*_URL`: each remote's `mf-manifest.json` URL. */
  remotes: RemoteDefinition[];
  /**
   * Each team service the shell's proxy forwards to (registry `TEAM_SERVICES`): `SURVEY_SERVICE_URL`
   * etc., a comma-separated list of instance origins (balanced round-robin); default its registry
   * port on loopback. `SERVICE_CONNECT_TIMEOUT_MS` (default 1000) and `SERVICE_TIMEOUT_MS` (default
   * 10000) bound how long the proxy waits for a connection and for an answer.
   */
  services: Record<TeamServiceName, TeamServiceTarget>;
  /** `REMOTE_TIMEOUT_MS`, default 8000: how long the browser waits for a remote. */
  remoteTimeoutMs: number;
  /** `DATA_DIR`, default `.data`: SQLite file and embedded search data live here. */
  dataDir: string;
  /** `DATABASE_URL`: PostgreSQL instead of the SQLite file when set. */
  databaseUrl: string | undefined;
  /** `COOKIE_SECRET`: signs visitor cookies; must be the same on every instance. */
  cookieSecret: string;
  /**
   * Each team service's edge key (`SURVEY_EDGE_KEY`…, registry `edgeKeyEnv`), sent with every
   * request forwarded to it; default the service's public development key (loopback only).
   */
  edgeKeys: Record<TeamServiceName, string>;
  /** True when `COOKIE_SECRET` is unset and the public development secret is used. */
  usesDevelopmentCookieSecret: boolean;
  /** `OPERATOR_TOKEN` (at least 16 characters): opens `/health/remotes`. Unset: that view is off (404). */
  operatorToken: string | undefined;
  /** `CONTENT_DIR`: the article folder (`<id>.md` files), default the checkout's `content/articles`; watched while the site runs. */
  contentDir: string;
  /** `PREVIEW_SECRET` (at least 16 characters): signs editors' preview links of drafts. Unset: previews are off (404). */
  previewSecret: string | undefined;
  /**
   * `REMOTE_PREVIEW_SECRET` (at least 16 characters): the operators' secret that signs preview links of
   * a remote's candidate build (`deploy --preview`). Unset: remote previews are off (`/__preview` is 404).
   */
  remotePreviewSecret: string | undefined;
}

/** Where the proxy reaches one team service, and how long it waits. */
export interface TeamServiceTarget {
  /** Origins of its instances (at least one). */
  upstreams: string[];
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** What the edge does with its calls, as the service declares it (registry `readEdgePolicy`, checked here). */
  edgePolicy: EdgePolicy;
}

/** A service's declared edge policy, checked; a problem goes to `problems` (and an empty policy is used). */
function readServiceEdgePolicy(service: (typeof TEAM_SERVICES)[number], problems: string[]): EdgePolicy {
  try {
    return parseEdgePolicy(readEdgePolicy(service), service.name);
  } catch (error) {
    problems.push(error instanceof EdgePolicyError ? error.message : `The ${service.name} service's edge policy (${service.slice}/slice.json) cannot be read: ${(error as Error).message}`);
    return { routes: [] };
  }
}

/** A configuration value was missing or malformed; lists every problem at once. */
export class ShellConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid shell configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ShellConfigError';
  }
}

// The public development value, one definition in the service kit.
const DEV_COOKIE_SECRET = DEVELOPMENT_COOKIE_SECRET;

/** Reads variables of `env`, each malformed one a line in `problems`. */
function envReader(env: NodeJS.ProcessEnv, problems: string[]) {
  const text = (name: string, fallback: string) => {
    const value = env[name]?.trim();
    return value ? value : fallback;
  };
  const optional = (name: string) => env[name]?.trim() || undefined;
  const integer = (name: string, fallback: number, min: number, max: number) => {
    try {
      return readEnvInteger(env, name, { min, max }) ?? fallback;
    } catch (error) {
      problems.push((error as Error).message);
      return fallback;
    }
  };
  const url = (name: string, fallback: string) => {
    const value = text(name, fallback);
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    } catch {
      problems.push(`${name} must be an http(s) URL, got "${value}"`);
    }
    return value;
  };
  const urlList = (name: string, fallback: string) => {
    const values = text(name, fallback).split(',').map((value) => value.trim()).filter(Boolean);
    const origins: string[] = [];
    for (const value of values) {
      try {
        const parsed = new URL(value);
        if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || (parsed.pathname !== '/' && parsed.pathname !== '')) throw new Error('not an origin');
        origins.push(parsed.origin);
      } catch {
        problems.push(`${name} must list http(s) origins (comma-separated, no path), got "${value}"`);
      }
    }
    if (values.length === 0) problems.push(`${name} must name at least one origin`);
    return origins;
  };
  /** A secret that may be unset, at least `minLength` characters when set. */
  const secret = (name: string, minLength: number) => {
    const value = optional(name);
    if (value !== undefined && value.length < minLength) problems.push(`${name} must be at least ${minLength} characters`);
    return value;
  };
  return { text, optional, integer, url, urlList, secret };
}

type EnvReader = ReturnType<typeof envReader>;

/** Each team service's upstreams, timeouts and checked edge policy. */
function readServices(read: EnvReader, problems: string[]): Record<TeamServiceName, TeamServiceTarget> {
  const connectTimeoutMs = read.integer('SERVICE_CONNECT_TIMEOUT_MS', 1000, 50, 60000);
  const responseTimeoutMs = read.integer('SERVICE_TIMEOUT_MS', 10000, 100, 120000);
  return Object.fromEntries(
    TEAM_SERVICES.map((service) => [
      service.name,
      { upstreams: read.urlList(service.urlEnv, defaultServiceUrl(service)), connectTimeoutMs, responseTimeoutMs, edgePolicy: readServiceEdgePolicy(service, problems) },
    ]),
  ) as Record<TeamServiceName, TeamServiceTarget>;
}

/** Each team service's edge key (default its public development key). */
function readEdgeKeys(read: EnvReader, problems: string[]): Record<TeamServiceName, string> {
  return Object.fromEntries(
    TEAM_SERVICES.map((service) => {
      const key = read.text(service.edgeKeyEnv, developmentEdgeKey(service.name));
      if (key.length < MIN_EDGE_KEY_LENGTH) problems.push(`${service.edgeKeyEnv} must be at least ${MIN_EDGE_KEY_LENGTH} characters`);
      return [service.name, key];
    }),
  ) as Record<TeamServiceName, string>;
}

/** `HOST` and `COOKIE_SECRET`: the development secret only on loopback. */
function readListening(read: EnvReader, problems: string[]) {
  const cookieSecret = read.text('COOKIE_SECRET', DEV_COOKIE_SECRET);
  if (cookieSecret.length < 32) problems.push('COOKIE_SECRET must be at least 32 characters');
  const host = read.text('HOST', '127.0.0.1');
  // Anyone can read the development secret here: with it, anyone could sign a visitor's cookie.
  if (cookieSecret === DEV_COOKIE_SECRET && !isLoopbackHost(host)) {
    problems.push(`COOKIE_SECRET must be set to listen on HOST=${host} (not loopback): the development secret is public`);
  }
  return { host, cookieSecret, usesDevelopmentCookieSecret: cookieSecret === DEV_COOKIE_SECRET };
}

/** `PUBLIC_BASE_URL`, `ALLOWED_HOSTS`, `TRUST_PROXY`. */
function readLinkSettings(env: NodeJS.ProcessEnv, problems: string[]) {
  const publicBaseUrl = env.PUBLIC_BASE_URL?.trim() ? normalizePublicBaseUrl(env.PUBLIC_BASE_URL.trim()) : undefined;
  const allowedHosts = parseAllowedHosts(env.ALLOWED_HOSTS);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  for (const problem of [publicBaseUrl?.problem, allowedHosts.problem, trustProxy.problem]) if (problem) problems.push(problem);
  return { publicBaseUrl: publicBaseUrl?.url, allowedHosts: allowedHosts.hosts, trustProxy: trustProxy.value };
}

/** Reads and validates the configuration; throws `ShellConfigError` naming each bad variable. */
export function readShellConfig(givenEnv: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ShellConfig {
  const env = withDeprecatedEnv(givenEnv);
  // A manifest placing an island in an unknown slot, naming an unknown island or context field, or declaring a malformed page.
  const problems: string[] = [...readSlotFills(SLICES).problems, ...readSlicePages(SLICES).problems];
  const read = envReader(env, problems);
  const config: ShellConfig = {
    ...readListening(read, problems),
    port: read.integer('PORT', SHELL_DEFAULT_PORT, 0, 65535),
    listenFd: env.LISTEN_FD?.trim() ? read.integer('LISTEN_FD', 0, 3, 65535) : undefined,
    siteName: read.text('SITE_NAME', 'KHS Competence'),
    ...readLinkSettings(env, problems),
    remotes: KNOWN_REMOTES.map((remote) => ({ name: remote.name, entry: read.url(remote.manifestEnv, defaultManifestUrl(remote)) })),
    services: readServices(read, problems),
    remoteTimeoutMs: read.integer('REMOTE_TIMEOUT_MS', 8000, 100, 120000),
    dataDir: path.resolve(cwd, read.text('DATA_DIR', '.data')),
    databaseUrl: read.optional('DATABASE_URL'),
    edgeKeys: readEdgeKeys(read, problems),
    operatorToken: read.secret('OPERATOR_TOKEN', 16),
    contentDir: env.CONTENT_DIR?.trim() ? path.resolve(cwd, env.CONTENT_DIR.trim()) : defaultArticlesDir,
    previewSecret: read.secret('PREVIEW_SECRET', PREVIEW_SECRET_MIN_LENGTH),
    remotePreviewSecret: read.secret(PREVIEW_SECRET_ENV, REMOTE_PREVIEW_SECRET_MIN_LENGTH),
  };
  if (problems.length > 0) throw new ShellConfigError(problems);
  return config;
}
