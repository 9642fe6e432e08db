import type { FastifyRequest } from 'fastify';
import { callRoutePattern, DEFAULT_CALL_URLS } from 'contracts';
import type { ShellFeature } from '../app.js';
import type { ShellConfig } from '../config.js';
import type { ContentStore } from '../content/contentStore.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import { INSIGHTS_LIMIT, SURVEY_VOTE_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { serviceProxy, type ServiceProxyOptions } from './serviceProxy.js';

/** Purpose of the voter id the edge derives for the survey service (see `visitorIdOf`): kept from before the move, so earlier votes keep their voters. */
export const VOTER_ID_PURPOSE = 'survey-vote';

/**
 * Largest bodies the edge forwards (bytes), per call: the edge's own cap, refused with 413 before a
 * byte is forwarded. Each service applies its own limit as well (the same numbers today).
 */
export const EDGE_BODY_LIMITS = { surveySubmission: 1024, watchlist: 256 * 1024, insights: 128 * 1024 } as const;

/** Longest survey handle looked up for the limit's scope; longer ones count as unknown. */
const MAX_FORM_HANDLE_LENGTH = 100;

/** What the proxies need. */
export interface TeamServiceProxyDependencies {
  config: Pick<ShellConfig, 'services' | 'cookieSecret' | 'edgeKeys'>;
  /** Survey lookups for the vote limit's scope (unknown handles share one counter). */
  content: Pick<ContentStore, 'getSurvey'>;
  /** Origin of absolute links (sharing URLs, PDF links), forwarded to the watchlist service. */
  linkOrigin: LinkOriginResolver;
}

/**
 * Each team service's calls, forwarded by the shell at the paths contracts name (DEFAULT_CALL_URLS):
 * the survey service gets the survey submission (CSRF-checked, limited per address and survey,
 * voter named by the edge) and the results call; the watchlist service the watchlist and download
 * calls (CSRF-checked, with the link origin the edge resolved); the search team's insights collector
 * the insights call.
 */
export function teamServiceProxies({ config, content, linkOrigin }: TeamServiceProxyDependencies): ShellFeature[] {
  const common = (name: keyof ShellConfig['services']): Pick<ServiceProxyOptions, 'upstreams' | 'cookieSecret' | 'edgeKey' | 'connectTimeoutMs' | 'responseTimeoutMs'> => ({
    upstreams: config.services[name].upstreams,
    cookieSecret: config.cookieSecret,
    edgeKey: config.edgeKeys[name],
    connectTimeoutMs: config.services[name].connectTimeoutMs,
    responseTimeoutMs: config.services[name].responseTimeoutMs,
  });
  const surveyScope = (request: FastifyRequest) => {
    const handle = (request.params as { formHandle?: string }).formHandle ?? '';
    return `survey:${handle.length <= MAX_FORM_HANDLE_LENGTH && content.getSurvey(handle) ? handle : '?'}`;
  };
  const survey: ServiceProxyOptions = {
    service: 'survey',
    ...common('survey'),
    routes: [
      { method: 'POST', url: callRoutePattern(DEFAULT_CALL_URLS.surveySubmit), rateLimit: { policy: SURVEY_VOTE_LIMIT, scope: surveyScope }, visitorIdPurpose: VOTER_ID_PURPOSE, bodyLimit: EDGE_BODY_LIMITS.surveySubmission },
      { method: 'GET', url: callRoutePattern(DEFAULT_CALL_URLS.surveyResults) },
    ],
  };
  const watchlist: ServiceProxyOptions = {
    service: 'watchlist',
    ...common('watchlist'),
    linkOrigin,
    routes: [
      { method: 'POST', url: callRoutePattern(DEFAULT_CALL_URLS.watchlist), forwardLinkOrigin: true, bodyLimit: EDGE_BODY_LIMITS.watchlist },
      { method: 'POST', url: callRoutePattern(DEFAULT_CALL_URLS.download), forwardLinkOrigin: true, bodyLimit: EDGE_BODY_LIMITS.watchlist },
    ],
  };
  const insights: ServiceProxyOptions = {
    service: 'insights',
    ...common('insights'),
    routes: [
      // No CSRF token on purpose: search-insights and beacons cannot send one, the call only stores
      // anonymous analytics events (no visitor data is read or changed), and the collector validates
      // every event strictly; a forged request can at most add analytics noise. Being exempt, it is
      // rate-limited per client address here instead (shared across instances).
      { method: 'POST', url: callRoutePattern(DEFAULT_CALL_URLS.insights), csrfExempt: true, rateLimit: { policy: INSIGHTS_LIMIT }, bodyLimit: EDGE_BODY_LIMITS.insights },
    ],
  };
  return [
    { plugin: serviceProxy, options: survey },
    { plugin: serviceProxy, options: watchlist },
    { plugin: serviceProxy, options: insights },
  ];
}
