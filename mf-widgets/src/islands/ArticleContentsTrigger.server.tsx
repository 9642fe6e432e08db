import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { ArticleContentsTrigger } from '../markup/ArticleWidgets.js';

export const islandApiVersion = ISLAND_API_VERSION;
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/** The "In this article" button of the article header; it opens the contents dialog of ArticleWidgets. */
export const render: IslandRender = async () => ({ html: renderToString(<ArticleContentsTrigger />) });
