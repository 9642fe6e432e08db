import type { FastifyRequest } from 'fastify';
import { callRoutePattern, DEFAULT_CALL_URLS } from 'contracts';
import type { ShellFeature } from '../app.js';
import type { ShellConfig } from '../config.js';
import type { ContentStore } from '../content/contentStore.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import { EDGE_BODY_LIMITS } from '../security/edgeLimits.js';
import { INSIGHTS_LIMIT, SURVEY_VOTE_LIMIT, WATCHLIST_LIMIT, WATCHLIST_PDF_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { serviceProxy, type ServiceProxyOptions } from './serviceProxy.js';

/** Purpose of the voter id the edge derives for the survey service (see `visitorIdOf`): kept from before the move, so earlier votes keep their voters. */
export const VOTER_ID_PURPOSE = 'survey-vote';
/** Purpose of the visitor id forwarded to the watchlist service: it bounds the share links one visitor creates. */
export const SHARE_CREATOR_ID_PURPOSE = 'watchlist-share';

/** The edge's body caps per call live with the other edge limits; re-exported for the proxies' users. */
export { EDGE_BODY_LIMITS } from '../security/edgeLimits.js';

/** Longest survey handle looked up for the limit's scope; longer ones count as unknown. */
const MAX_FORM_HANDLE_LENGTH = 100;

/** What the proxies need. */
export interface TeamServiceProxyDependencies {
  config: Pick<ShellConfig, 'services' | 'cookieSecret' | 'edgeKeys'>;
  /** Survey lookups for the vote limit's scope (unknown handles share one counter). */
  content: Pick<ContentStore, 'getSurvey'>;
  /** Origin of absolute links (sharing URLs, PDF links), forwarded to the watchlist service. */
  linkOrigin: LinkOriginResolver;
  /** Proxied requests one client address may have in flight per service. Default `PROXY_IN_FLIGHT_PER_ADDRESS` (benchmarks from one address raise it). */
  inFlightPerAddress?: number;
}

/**
 * Each team service's calls, forwarded by the shell at the paths contracts name (DEFAULT_CALL_URLS):
 * the survey service gets the survey submission (CSRF-checked, limited per address and survey,
 * voter named by the edge) and the results call; the watchlist service the watchlist and download
 * calls (CSRF-checked, limited per address, with the link origin the edge resolved; the watchlist
 * call with the visitor id that bounds its share links); the search team's insights collector
 * the insights call.
 */
export function teamServiceProxies({ config, content, linkOrigin, inFlightPerAddress }: TeamServiceProxyDependencies): ShellFeature[] {
  const common = (name: keyof ShellConfig['services']): Pick<ServiceProxyOptions, 'upstreams' | 'cookieSecret' | 'edgeKey' | 'connectTimeoutMs' | 'responseTimeoutMs' | 'inFlightPerAddress'> => ({
    ...(inFlightPerAddress !== undefined ? { inFlightPerAddress } : {}),
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
      {
        method: 'POST',
        url: callRoutePattern(DEFAULT_CALL_URLS.watchlist),
        forwardLinkOrigin: true,
        bodyLimit: EDGE_BODY_LIMITS.watchlist,
        rateLimit: { policy: WATCHLIST_LIMIT, scope: () => 'watchlist' },
        visitorIdPurpose: SHARE_CREATOR_ID_PURPOSE,
      },
      { method: 'POST', url: callRoutePattern(DEFAULT_CALL_URLS.download), forwardLinkOrigin: true, bodyLimit: EDGE_BODY_LIMITS.watchlist, rateLimit: { policy: WATCHLIST_PDF_LIMIT, scope: () => 'watchlist-pdf' } },
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
