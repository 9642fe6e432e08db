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
