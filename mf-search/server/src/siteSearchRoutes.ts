import type { FastifyInstance } from 'fastify';
import { DEFAULT_CALL_URLS } from 'contracts';
import { SITE_SEARCH_BODY_LIMIT_BYTES } from './edgePolicy.js';
import type { SiteSearchRepository } from './storage/siteSearchRepository.js';
import { validateSiteSearch } from './validateSiteSearch.js';
import { parseBeaconBody } from './beaconBody.js';

/** Path of site-search tracking (PageConfig.calls.siteSearch). */
export const SITE_SEARCH_PATH = DEFAULT_CALL_URLS.siteSearch;

/**
 * Site-search tracking: `POST /api/insights/searches` with `{ query, hitCount, filters?, page,
 * queryID? }` (`validateSiteSearch`), stored with the service's time and answered 204; anything
 * else is a 4xx JSON error and nothing is stored (400 invalid, 413 over
 * `SITE_SEARCH_BODY_LIMIT_BYTES`, 415 neither JSON nor text). The browser sends it only with the
 * visitor's `tracking` consent; the shell's edge limits it per address (the edge policy).
 */
export async function siteSearchRoutes(app: FastifyInstance, options: { searches: SiteSearchRepository; now?: () => number }): Promise<void> {
  const now = options.now ?? Date.now;
  app.post(SITE_SEARCH_PATH, { bodyLimit: SITE_SEARCH_BODY_LIMIT_BYTES }, async (request, reply) => {
    const validation = validateSiteSearch(parseBeaconBody(request.body), now());
    if (!validation.ok) {
      return reply.code(400).header('cache-control', 'no-store').send({ error: validation.error, code: 'invalid-site-search' });
    }
    await options.searches.store(validation.search);
    return reply.code(204).header('cache-control', 'no-store').send();
  });
}
