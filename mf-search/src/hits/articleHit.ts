import type { Hit } from 'instantsearch.js';
import type { SearchHit } from 'contracts';

/** A hit of the articles index as InstantSearch hands it over (fields may be missing). */
export type ArticleHit = Hit<Partial<SearchHit>>;
