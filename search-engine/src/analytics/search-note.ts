import type { SearchNote } from './analytics-manager.js';

/** Typesense's `normalize_ascii_no_spaces`: trimmed, ASCII letters lower-cased (others kept as typed). */
export function normalizeAnalyticsQuery(q: string): string {
  return q.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * What the analytics need of one search (Typesense records every search whose `enable_analytics`
 * is not false): the normalised query, the number found, `filter_by`, `analytics_tag`, and the
 * query expanded to the words the first hit matched (each query word replaced by the matched word
 * it begins; the query as typed unless every word has one). Computed by the worker that ran the
 * search, from its parameters and result, so searches answered by reader workers count too.
 */
export function searchNote(collection: string | undefined, params: Record<string, string>, result: Record<string, unknown>): SearchNote | undefined {
  if (!collection || params.enable_analytics === 'false' || typeof params.q !== 'string') return undefined;
  const q = normalizeAnalyticsQuery(params.q);
  const found = typeof result.found === 'number' ? result.found : 0;
  return { collection, q, expandedQ: found > 0 ? expandQuery(q, result) : q, found, filterBy: params.filter_by ?? '', analyticsTag: params.analytics_tag ?? '' };
}

function expandQuery(q: string, result: Record<string, unknown>): string {
  const hits = (result.hits ?? (result.grouped_hits as { hits?: unknown[] }[] | undefined)?.[0]?.hits) as { highlights?: { matched_tokens?: unknown[] }[] }[] | undefined;
  const matched: string[] = [];
  const collect = (tokens: unknown): void => {
    if (typeof tokens === 'string') matched.push(tokens.toLowerCase());
    else if (Array.isArray(tokens)) tokens.forEach(collect);
  };
  for (const highlight of hits?.[0]?.highlights ?? []) collect(highlight.matched_tokens);
  if (matched.length === 0) return q;
  const words = q.split(/\s+/).filter(Boolean);
  const expanded: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    const completion = matched.find((token) => token.startsWith(lower));
    if (!completion) return q;
    expanded.push(completion);
  }
  return expanded.join(' ');
}
