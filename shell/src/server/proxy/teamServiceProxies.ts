import type { ShellFeature } from '../app.js';
import type { ShellConfig } from '../config.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import type { RateLimitLogRepository } from '../slidingWindows/slidingWindows.js';
import { proxiedRoutesOf } from './edgePolicy.js';
import { serviceProxy, type ServiceProxyOptions } from './serviceProxy.js';

/** What the proxies need. */
export interface TeamServiceProxyDependencies {
  config: Pick<ShellConfig, 'services' | 'cookieSecret' | 'edgeKeys'>;
  /** Origin of absolute links (sharing URLs, PDF links), forwarded on the routes whose policy asks for it. */
  linkOrigin: LinkOriginResolver;
  /** Proxied requests one client address may have in flight per service. Default `PROXY_IN_FLIGHT_PER_ADDRESS` (benchmarks from one address raise it). */
  inFlightPerAddress?: number;
  /** Logs of the sliding-window limits (`Database.rateLimitLogs`, shared by instances). Default: each proxy's memory. */
  rateLimitLogs?: RateLimitLogRepository;
}

/**
 * One reverse proxy per team service that declares calls in its edge policy (`edgePolicy.ts`:
 * paths, methods, body limits, rate limits and their scope, CSRF or not, the visitor id purpose, the
 * link origin), applied the same way for every service: the shell knows no team's rules.
 */
export function teamServiceProxies({ config, linkOrigin, inFlightPerAddress, rateLimitLogs }: TeamServiceProxyDependencies): ShellFeature[] {
  return (Object.entries(config.services) as [keyof ShellConfig['services'], ShellConfig['services'][keyof ShellConfig['services']]][])
    .filter(([, target]) => target.edgePolicy.routes.length > 0)
    .map(([name, target]) => {
      const options: ServiceProxyOptions = {
        service: name,
        upstreams: target.upstreams,
        cookieSecret: config.cookieSecret,
        edgeKey: config.edgeKeys[name],
        connectTimeoutMs: target.connectTimeoutMs,
        responseTimeoutMs: target.responseTimeoutMs,
        linkOrigin,
        routes: proxiedRoutesOf(target.edgePolicy),
        ...(inFlightPerAddress !== undefined ? { inFlightPerAddress } : {}),
        ...(rateLimitLogs ? { rateLimitLogs } : {}),
      };
      return { plugin: serviceProxy, options };
    });
}
