/** The parts of a Typesense `multi_search` answer this module reads (everything else is kept as is). */
export interface TypesenseMultiSearchResponse {
  results: Array<{
    hits?: Array<{ document: Record<string, unknown>; highlight?: Record<string, unknown> }>;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

/**
 * Gives every hit whose excluded `fields` matched an empty stand-in for the field in its
 * document. The adapter builds `_highlightResult` / `_snippetResult` by walking the document's
 * keys, so without the stand-in the snippet the server sent (the `highlight` object) would be
 * dropped; with it, `_snippetResult[field]` is that snippet, and `hit[field]` is `''`.
 * Hits where the field did not match stay without it (the teaser then shows the intro).
 * Returns a new answer; the given one (possibly held in the client's cache) is not changed.
 */
export function withSnippetOnlyFields(response: TypesenseMultiSearchResponse, fields: readonly string[]): TypesenseMultiSearchResponse {
  return {
    ...response,
    results: response.results.map((result) =>
      Array.isArray(result.hits)
        ? {
            ...result,
            hits: result.hits.map((hit) => {
              const missing = fields.filter((field) => hit.highlight?.[field] != null && !(field in hit.document));
              if (missing.length === 0) return hit;
              return { ...hit, document: { ...hit.document, ...Object.fromEntries(missing.map((field) => [field, ''])) } };
            }),
          }
        : result,
    ),
  };
}
