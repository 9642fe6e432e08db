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

/** The body of `POST /collections` for the articles collection. */
export interface ArticleCollectionSchema {
  name: string;
  fields: SchemaField[];
  default_sorting_field: string;
}

/**
 * Schema of the site's articles collection (default name: contracts' `DEFAULT_SEARCH_INDEX_NAME`,
 * the index the browser searches): the search-hit fields, `topic`
 * as a facet, `date` sortable (and the default sort), `readingTime` numeric.
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
    ],
    default_sorting_field: 'date',
  };
}
