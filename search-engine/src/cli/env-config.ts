import { readEnvInteger } from '@khs/env-integer';
import { availableParallelism } from 'node:os';
import type { SearchServerOptions } from '../http/server.js';
import { parseAllowedOrigins } from '../http/browser-origins.js';

/** Default keys for local development (override with env in any shared setup). */
export const DEV_ADMIN_KEY = 'khs-admin-dev-key';
export const DEV_SEARCH_KEY = 'khs-search-dev-key';

/**
 * The Typesense base URL from the environment: `TYPESENSE_URL`, or
 * `TYPESENSE_PROTOCOL`/`TYPESENSE_HOST`/`TYPESENSE_PORT`; otherwise the
 * standalone embedded server's address (`SEARCH_HOST`/`SEARCH_PORT`).
 */
export function typesenseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TYPESENSE_URL) return env.TYPESENSE_URL.replace(/\/+$/, '');
  if (env.TYPESENSE_HOST) {
    const protocol = env.TYPESENSE_PROTOCOL ?? 'http';
    const port = env.TYPESENSE_PORT ?? (protocol === 'https' ? '443' : '8108');
    return `${protocol}://${env.TYPESENSE_HOST}:${port}`;
  }
  return `http://${env.SEARCH_HOST ?? '127.0.0.1'}:${env.SEARCH_PORT ?? '8108'}`;
}

/**
 * A yes/no environment variable: unset or blank → undefined (the default), `true`/`1`/`yes` → true,
 * `false`/`0`/`no` → false; anything else throws naming the variable.
 */
export function readEnvFlag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * Options of the standalone search server from the environment (see the
 * package README, "Run"). Unset variables keep the server's defaults.
 */
export function serverOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SearchServerOptions {
  const limits: NonNullable<SearchServerOptions['limits']> = {};
  const limitVariables = {
    SEARCH_MAX_MULTI_SEARCHES: 'maxMultiSearches',
    SEARCH_MAX_QUERY_LENGTH: 'maxQueryLength',
    SEARCH_MAX_HIGHLIGHT_TAG_LENGTH: 'maxHighlightTagLength',
    SEARCH_MAX_PARAMETER_LENGTH: 'maxParameterLength',
    SEARCH_MAX_HITS_PER_REQUEST: 'maxHitsPerRequest',
    SEARCH_MAX_RESPONSE_BYTES: 'maxResponseBytes',
    SEARCH_MAX_SEARCH_BODY_BYTES: 'maxSearchBodyBytes',
  } as const;
  for (const [variable, key] of Object.entries(limitVariables)) {
    const value = readEnvInteger(env, variable);
    if (value !== undefined) limits[key] = value;
  }
  const refuseAdminKeyFromPages = readEnvFlag(env, 'SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES');
  const adminRoutesFromAllowedOrigins = readEnvFlag(env, 'SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS');
  if (refuseAdminKeyFromPages && adminRoutesFromAllowedOrigins) {
    throw new Error('SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES and SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS contradict each other (admin routes need the admin key): set one');
  }
  return {
    host: env.SEARCH_HOST ?? '127.0.0.1',
    port: readEnvInteger(env, 'SEARCH_PORT', { min: 0, max: 65535 }) ?? 8108,
    dataDir: env.SEARCH_DATA_DIR ?? '.data/search',
    adminApiKey: env.TYPESENSE_API_KEY ?? DEV_ADMIN_KEY,
    searchOnlyApiKeys: [env.TYPESENSE_SEARCH_API_KEY ?? DEV_SEARCH_KEY],
    workers: readEnvInteger(env, 'SEARCH_WORKERS') ?? availableParallelism(),
    queueLimit: readEnvInteger(env, 'SEARCH_QUEUE_LIMIT'),
    searchBudgetMs: readEnvInteger(env, 'SEARCH_TIME_BUDGET_MS'),
    bodyLimitBytes: readEnvInteger(env, 'SEARCH_MAX_BODY_BYTES'),
    workerYoungGenerationMb: readEnvInteger(env, 'SEARCH_WORKER_YOUNG_GENERATION_MB'),
    allowedOrigins: parseAllowedOrigins(env.SEARCH_ALLOWED_ORIGINS),
    refuseAdminKeyFromPages,
    adminRoutesFromAllowedOrigins,
    bodyTimeoutMs: readEnvInteger(env, 'SEARCH_BODY_TIMEOUT_MS'),
    analyticsFlushIntervalMs: secondsToMs(readEnvInteger(env, 'SEARCH_ANALYTICS_FLUSH_INTERVAL')),
    analyticsMinuteRateLimit: readEnvInteger(env, 'SEARCH_ANALYTICS_MINUTE_RATE_LIMIT'),
    limits,
  };
}

/** True for an interface only this machine reaches: `127.0.0.0/8`, `::1`, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || /^::ffff:127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Checks the keys against the interface before the server listens: the development keys are
 * published in this repository, so a server reachable from other machines must not accept them.
 * Returns the warnings to log (development keys on loopback).
 * @throws Error when a development key would be used on a non-loopback interface.
 */
export function checkKeysForInterface(options: Pick<SearchServerOptions, 'host' | 'adminApiKey' | 'searchOnlyApiKeys'>): string[] {
  const host = options.host ?? '127.0.0.1';
  const devKeys = [
    ...(options.adminApiKey === DEV_ADMIN_KEY ? ['TYPESENSE_API_KEY (admin)'] : []),
    ...((options.searchOnlyApiKeys ?? []).includes(DEV_SEARCH_KEY) ? ['TYPESENSE_SEARCH_API_KEY (search-only)'] : []),
  ];
  if (devKeys.length === 0) return [];
  if (!isLoopbackHost(host)) {
    throw new Error(
      `refusing to listen on ${host} with the development key(s) ${devKeys.join(' and ')}: they are public; set your own keys to listen beyond loopback`,
    );
  }
  return [`WARNING: using the development key(s) ${devKeys.join(' and ')}, which are public; set your own for any shared setup`];
}
