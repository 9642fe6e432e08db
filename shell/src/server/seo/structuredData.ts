import type { Article } from '../content/contentStore.js';
import { articleModifiedAt, articlePublishedAt, clampDescription } from './siteMetadata.js';

/** A schema.org JSON-LD object. */
export type JsonLd = Record<string, unknown>;

/** The site as schema.org `Organization`: author and publisher of every article. */
function siteOrganization(siteName: string, origin: string, logoUrl: string): JsonLd {
  return { '@type': 'Organization', name: siteName, url: `${origin}/`, logo: { '@type': 'ImageObject', url: logoUrl } };
}

/**
 * JSON-LD `Article` (Google's "Article" structured data: headline, image, datePublished,
 * dateModified, author; plus publisher, description, keywords and about = the topics).
 */
export function articleJsonLd(options: {
  article: Article;
  siteName: string;
  /** Link origin, e.g. `https://khs.example`. */
  origin: string;
  /** Absolute URLs of the article's image (its original and a raster rendition). */
  imageUrls: string[];
  logoUrl: string;
}): JsonLd {
  const { article, siteName, origin, imageUrls, logoUrl } = options;
  const organization = siteOrganization(siteName, origin, logoUrl);
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    '@id': `${origin}${article.url}#article`,
    mainEntityOfPage: `${origin}${article.url}`,
    headline: clampDescription(article.headline || article.title, 110),
    name: article.title,
    description: clampDescription(article.intro),
    image: imageUrls,
    datePublished: articlePublishedAt(article).toISOString(),
    dateModified: articleModifiedAt(article).toISOString(),
    author: organization,
    publisher: organization,
    keywords: article.topic.join(', '),
    about: article.topic.map((topic) => ({ '@type': 'Thing', name: topic })),
    inLanguage: 'en',
    timeRequired: `PT${article.readingTime}M`,
  };
}

/** JSON-LD `BreadcrumbList` of an article page: the site's home, then the article. */
export function articleBreadcrumbJsonLd(options: { article: Article; siteName: string; origin: string }): JsonLd {
  const { article, siteName, origin } = options;
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: siteName, item: `${origin}/` },
      { '@type': 'ListItem', position: 2, name: article.title, item: `${origin}${article.url}` },
    ],
  };
}

/** JSON-LD `WebSite` of the home page, with the site search as `SearchAction` (`?q=`). */
export function webSiteJsonLd(options: { siteName: string; origin: string; searchPath: string; description: string }): JsonLd {
  const { siteName, origin, searchPath, description } = options;
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: siteName,
    url: `${origin}/`,
    description,
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${origin}${searchPath}?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}
