import type { Article } from '../content/contentStore.js';

/** The site's description: the meta description of pages without one of their own, and the feed's subtitle. */
export const SITE_DESCRIPTION =
  'Competence articles on leadership, communication, collaboration and working life, with typo-tolerant search, a watchlist and surveys.';

/** Path of the Atom feed of the latest articles. */
export const FEED_PATH = '/feed.xml';
/** Articles in the feed. */
export const FEED_ARTICLE_COUNT = 20;
/** Path of the sitemap (or, past {@link SITEMAP_URL_LIMIT} addresses, of the sitemap index). */
export const SITEMAP_PATH = '/sitemap.xml';
/** Addresses in one sitemap file: sitemaps.org allows 50,000. */
export const SITEMAP_URL_LIMIT = 50_000;
/** The content image that stands for the site where a page has none of its own (home, search, …). */
export const SITE_IMAGE_CONTENT_URL = '/content-images/default.svg';

/** When an article was first published. */
export function articlePublishedAt(article: Article): Date {
  return new Date(article.date * 1000);
}

/**
 * When an article last changed: the one place that decides it (sitemap `lastmod`, feed `updated`,
 * JSON-LD `dateModified`, `article:modified_time`). Its front matter's `updated` date, else the
 * publication date: never the file's modification time, which differs per checkout and would give
 * instances different bytes under one `ETag`.
 */
export function articleModifiedAt(article: Article): Date {
  return article.updated === undefined ? articlePublishedAt(article) : new Date(article.updated * 1000);
}

/** A description of at most `max` characters, cut at a word boundary with an ellipsis. */
export function clampDescription(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

/** Escapes text for XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '') // characters XML 1.0 cannot hold
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
