import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';

/** A field of a collection schema as sent to `POST /collections`. */
export interface SchemaField {
  name: string;
  type: string;
  facet?: boolean;
  optional?: boolean;
  sort?: boolean;
  index?: boolean;
}

/**
 * Each article's popularity from visitors' clicks and saves (decayed, capped per visitor), used
 * after text match in the site's sort when popularity is on. Optional so that a collection made
 * before it can gain it (`PATCH /collections`, which Typesense refuses for a required field).
 */
export const POPULARITY_FIELD: SchemaField = { name: 'popularity', type: 'float', optional: true, sort: true };

/** The body of `POST /collections` for the articles collection. */
export interface ArticleCollectionSchema {
  name: string;
  fields: SchemaField[];
  default_sorting_field: string;
}

/**
 * Schema of the site's articles collection (default name: contracts' `DEFAULT_SEARCH_INDEX_NAME`,
 * the index the browser searches): the search-hit fields, `topic`
 * as a facet, `date` sortable (and the default sort), `readingTime` numeric, `popularity` (0 until
 * the popularity updater writes it, `popularity/`) sortable.
 */
export function collectionSchema(name: string = DEFAULT_SEARCH_INDEX_NAME): ArticleCollectionSchema {
  return {
    name,
    fields: [
      { name: 'headline', type: 'string' },
      { name: 'title', type: 'string' },
      { name: 'subline', type: 'string', optional: true },
      { name: 'intro', type: 'string' },
      { name: 'content', type: 'string' },
      { name: 'image', type: 'string', index: false },
      { name: 'url', type: 'string', index: false },
      { name: 'cta', type: 'string', index: false },
      { name: 'topic', type: 'string[]', facet: true },
      { name: 'date', type: 'int64', sort: true },
      { name: 'readingTime', type: 'int32' },
      POPULARITY_FIELD,
    ],
    default_sorting_field: 'date',
  };
}
