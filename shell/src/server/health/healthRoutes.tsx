import { OPERATOR_CHALLENGE, tokenCheck } from '@khs/observability';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderToStaticMarkup } from 'react-dom/server';
import type { RemoteDefinition } from 'contracts';
import { ISLAND_FAILURE_REPORT_PATH } from '../../shared/islandFailureReport.js';
import type { RemotePollState } from '../federation/serverFederation.js';
import { ISLAND_FAILURE_LIMIT, OPERATOR_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import type { IslandFailureStore } from '../islandFailures/islandFailureCounts.js';
import { RemotesHealthPage } from './RemotesHealthPage.js';
import { remotesHealth, type CanaryFacts } from './remotesHealth.js';
import { validatePageReport } from './validateIslandFailureReport.js';

/** Paths of the operators' view of the remotes (HTML; JSON by `Accept` or the `.json` path). */
export const REMOTES_HEALTH_PATH = '/health/remotes';
export const REMOTES_HEALTH_JSON_PATH = '/health/remotes.json';
/** Largest beacon body: a failure is about 250 bytes, a page report with views and 10 failures under 3 KiB. */
export const ISLAND_FAILURE_BODY_LIMIT_BYTES = 4096;

export interface HealthRoutesOptions {
  /** The configured remotes (beacons for other names are refused). */
  remotes: RemoteDefinition[];
  /** `OPERATOR_TOKEN`; undefined turns `/health/remotes` off (404). */
  operatorToken: string | undefined;
  /** The server loader's poll state (`ServerFederation.pollStates`); undefined with server islands off. */
  pollStates?: () => RemotePollState[];
  /** Recent failures, shared with the server islands' failure log. */
  failureCounts: IslandFailureStore;
  /** Told after each accepted page report (the canary monitor re-evaluates, debounced). Default: nothing. */
  onReport?: () => void;
  /** The canary facts of a remote (split, recorded end, last verdict) for the view. Default: none. */
  canaryOf?: (remote: string) => CanaryFacts | undefined;
  now?: () => number;
  /** This process's Prometheus metrics (`@khs/observability` `metricsText`), served at `/metrics` behind the token. Default: none. */
  metrics?: () => Promise<{ contentType: string; body: string }>;
}

/** Path of the shell's Prometheus metrics (operators' token, as `/health/remotes`). */
export const METRICS_PATH = '/metrics';

function parseBody(body: unknown): unknown {
  // navigator.sendBeacon(url, string) sends text/plain: the JSON is in the text.
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A machine asking for JSON (`Accept: application/json`); browsers ask for HTML first. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
}

/**
 * The page-report beacon (`POST /api/island-failures`: views per remote build, failures per remote, code and build) and the operators'
 * view of the remotes (`GET /health/remotes`, `/health/remotes.json`), see shell README.
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const knownRemotes = new Set(options.remotes.map((remote) => remote.name));
  const now = options.now ?? Date.now;
  const checkToken = options.operatorToken === undefined ? undefined : tokenCheck(options.operatorToken);

  app.post(
    ISLAND_FAILURE_REPORT_PATH,
    {
      // No CSRF token on purpose: navigator.sendBeacon cannot set a header, and the beacon only
      // adds one to a counter (memory, or a buffered PostgreSQL row) of a configured remote and a published code — it reads
      // and changes no visitor's data. A forged request can at most add noise to the counts, and
      // that is bounded per client address by the rate limit below.
      config: { csrfExempt: true, ...rateLimitConfig(ISLAND_FAILURE_LIMIT) },
      bodyLimit: ISLAND_FAILURE_BODY_LIMIT_BYTES,
    },
    async (request, reply) => {
      const validation = validatePageReport(parseBody(request.body), knownRemotes);
      if (!validation.ok) {
        return reply.code(400).header('cache-control', 'no-store').send({ error: validation.error, code: 'invalid-island-failure-report' });
      }
      for (const [remote, buildVersion] of validation.report.views) options.failureCounts.recordView(remote, buildVersion);
      for (const { remote, code, remoteVersion } of validation.report.failures) {
        options.failureCounts.recordFailure({ remote, source: 'browser', code, version: remoteVersion });
      }
      options.onReport?.();
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );

  // Off unless configured: the paths are not registered, so they answer the site's own 404, as
  // any unknown URL does (nothing tells a scanner that an operators' view exists).
  if (!checkToken) return;

  const authorized = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const checked = checkToken(request.headers.authorization);
    if (checked === 'ok') return true;
    void reply
      .code(401)
      .header('cache-control', 'no-store')
      .header('www-authenticate', OPERATOR_CHALLENGE)
      .send({ error: checked === 'missing' ? 'An operator token is required' : 'The operator token is wrong', code: 'operator-token-required' });
    return false;
  };

  const view = (json: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!authorized(request, reply)) return reply;
    const health = await remotesHealth(options.remotes, options.pollStates?.(), options.failureCounts, now(), options.canaryOf);
    reply.header('cache-control', 'no-store').header('vary', 'Accept, Authorization');
    if (json || wantsJson(request)) return reply.send(health);
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>${renderToStaticMarkup(<RemotesHealthPage health={health} />)}`);
  };
  // Rate-limited per address: a token cannot be guessed at speed.
  const limited = { config: rateLimitConfig(OPERATOR_LIMIT) };
  app.get(REMOTES_HEALTH_PATH, limited, view(false));
  app.get(REMOTES_HEALTH_JSON_PATH, limited, view(true));
  const metrics = options.metrics;
  if (metrics) {
    app.get(METRICS_PATH, limited, async (request, reply) => {
      if (!authorized(request, reply)) return reply;
      const { contentType, body } = await metrics();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  }
}
