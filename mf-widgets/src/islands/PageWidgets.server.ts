import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/**
 * `mf-widgets/PageWidgets` has no markup of its own: it enhances the widget markup of the whole
 * page in the browser. Its server render is empty, so the island counts as rendered (no
 * placeholder) and its stylesheet is linked in the page head before any script runs.
 */
export const render: IslandRender = async () => ({ html: '' });
