import type { HitAttributeHighlightResult, HitAttributeSnippetResult } from 'instantsearch.js';
import { parseHighlight, type HighlightSegment } from '../highlight/parseHighlight.js';
import type { ArticleHit } from './articleHit.js';

type AttributeResult = HitAttributeHighlightResult | HitAttributeSnippetResult;

function attributeResult(results: unknown, attribute: string): AttributeResult | undefined {
  const value = (results as Record<string, unknown> | undefined)?.[attribute];
  return value && typeof value === 'object' && 'value' in value && typeof value.value === 'string'
    ? (value as AttributeResult)
    : undefined;
}

function matched(result: AttributeResult | undefined): result is AttributeResult {
  return result !== undefined && result.matchLevel !== 'none';
}

function plain(text: string | undefined): HighlightSegment[] {
  return text ? [{ text, highlighted: false }] : [];
}

/** The teaser headline: the headline, or the title when there is none, with matched words. */
export function teaserHeadline(hit: ArticleHit): HighlightSegment[] {
  const attribute = hit.headline ? 'headline' : 'title';
  const result = attributeResult(hit._highlightResult, attribute);
  return result ? parseHighlight(result.value) : plain(hit[attribute]);
}

/**
 * The teaser intro (specification point 4): the intro if it matched; otherwise the content
 * snippet if it matched; otherwise the intro.
 */
export function teaserIntro(hit: ArticleHit): HighlightSegment[] {
  const intro = attributeResult(hit._highlightResult, 'intro');
  if (matched(intro)) return parseHighlight(intro.value);
  const content = attributeResult(hit._snippetResult, 'content');
  if (matched(content)) return parseHighlight(content.value);
  return plain(hit.intro);
}

type HighlightObjects = Record<string, HitAttributeSnippetResult>;

/**
 * The highlights `teaserHeadline` and `teaserIntro` read of a hit, each as `{ value, matchLevel }`,
 * and nothing else: a highlight that matched nothing and equals its field (the teaser then shows
 * the field as it is), and the content snippet unless it matched while the intro did not (the
 * only case `teaserIntro` shows it). The list keeps only these (`config/compactListHits.ts`), in
 * the server render's answers (the island's state) and the browser's alike, so a teaser renders
 * the same from either.
 * @param highlightedFields  The fields of `_highlightResult` a teaser may read.
 */
export function teaserHighlights(hit: Record<string, unknown>, highlightedFields: readonly string[]): { _highlightResult?: HighlightObjects; _snippetResult?: HighlightObjects } {
  const kept: HighlightObjects = {};
  for (const field of highlightedFields) {
    const result = attributeResult(hit._highlightResult, field);
    if (!result || (result.matchLevel === 'none' && result.value === hit[field])) continue;
    kept[field] = { value: result.value, matchLevel: result.matchLevel };
  }
  const content = attributeResult(hit._snippetResult, 'content');
  const snippet = matched(content) && !matched(kept.intro) ? { content: { value: content.value, matchLevel: content.matchLevel } } : undefined;
  return {
    ...(hit._highlightResult ? { _highlightResult: kept } : {}),
    ...(snippet ? { _snippetResult: snippet } : {}),
  };
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * "date, reading time" or whichever of them exists; empty when neither does.
 * @param date  Unix seconds.
 * @param readingTime  Minutes.
 */
export function teaserMeta(date: number | undefined, readingTime: number | undefined): string {
  const parts: string[] = [];
  if (typeof date === 'number' && Number.isFinite(date) && date > 0) parts.push(DATE_FORMAT.format(new Date(date * 1000)));
  if (typeof readingTime === 'number' && Number.isFinite(readingTime) && readingTime > 0) parts.push(`${readingTime} min read`);
  return parts.join(', ');
}
