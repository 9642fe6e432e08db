import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on nothing: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/**
 * `mf-search/SearchConversions` has no markup: it only listens in the browser. Its server render is
 * empty, so the island counts as rendered (no placeholder).
 */
export const render: IslandRender = async () => ({ html: '' });
