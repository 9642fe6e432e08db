/**
 * Where an editor reads how to act on a query that finds nothing: the formats of the synonym and
 * curation sets the search team's files follow (Typesense 30; the files are
 * `mf-search/server/search-sets/synonyms.json` and `curations.json`, described in mf-search's README).
 */
export const SEARCH_SET_DOCS = {
  synonyms: 'https://typesense.org/docs/30.0/api/synonyms.html',
  curations: 'https://typesense.org/docs/30.0/api/curation.html',
} as const;
