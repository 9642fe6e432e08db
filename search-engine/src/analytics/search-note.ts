import { tokenize } from '../text/tokenize.js';
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
  return { collection, q, expandedQ: found > 0 ? expandQuery(q, params, result) : q, found, filterBy: params.filter_by ?? '', analyticsTag: params.analytics_tag ?? '' };
}

/**
 * Each query word replaced by the first word of the first hit's `query_by` fields (in their order)
 * that it begins, as Typesense maps the typed query to the words its first hit matched (`typ` →
 * `typesense`); the query as typed unless every word finds one.
 */
function expandQuery(q: string, params: Record<string, string>, result: Record<string, unknown>): string {
  const grouped = result.grouped_hits as { hits?: unknown[] }[] | undefined;
  const hits = (result.hits ?? grouped?.[0]?.hits) as { document?: Record<string, unknown> }[] | undefined;
  const document = hits?.[0]?.document;
  if (!document) return q;
  const fieldWords: string[] = [];
  for (const field of (params.query_by ?? '').split(',').map((f) => f.trim()).filter(Boolean)) collectWords(valueAt(document, field), fieldWords);
  const expanded: string[] = [];
  for (const word of tokenize(q)) {
    const completion = fieldWords.includes(word) ? word : fieldWords.find((candidate) => candidate.startsWith(word));
    if (!completion) return q;
    expanded.push(completion);
  }
  return expanded.length > 0 ? expanded.join(' ') : q;
}

/** A (possibly dotted, nested) field's value of a document. */
function valueAt(document: Record<string, unknown>, field: string): unknown {
  if (field in document) return document[field];
  let value: unknown = document;
  for (const part of field.split('.')) {
    if (Array.isArray(value)) value = value.map((item) => (item as Record<string, unknown> | null)?.[part]);
    else value = (value as Record<string, unknown> | null | undefined)?.[part];
  }
  return value;
}

function collectWords(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(...tokenize(value));
  else if (Array.isArray(value)) for (const item of value) collectWords(item, into);
}
