import type { Article } from '../content/contentStore.js';
import type { PageMetadataProps, SocialImage } from './PageMetadata.js';
import type { ImageCatalogue } from './imageCatalogue.js';
import { articleModifiedAt, articlePublishedAt, clampDescription, SITE_DESCRIPTION, SITE_IMAGE_CONTENT_URL } from './siteMetadata.js';
import { articleBreadcrumbJsonLd, articleJsonLd, webSiteJsonLd } from './structuredData.js';

/** What every page's metadata is built from. */
export interface MetadataContext {
  /** Link origin of the request (`PUBLIC_BASE_URL`, or an allowed host), no trailing slash. */
  origin: string;
  siteName: string;
  images: ImageCatalogue;
}

/** The raster social image of a content image, absolute; the site's image when the content has none. */
function socialImage(context: MetadataContext, contentUrl: string, alt: string): SocialImage | undefined {
  const image = context.images.resolve(contentUrl) ?? context.images.resolve(SITE_IMAGE_CONTENT_URL);
  if (!image) return undefined;
  return { url: `${context.origin}${image.socialPng.src}`, width: image.socialPng.width, height: image.socialPng.height, type: 'image/png', alt };
}

function siteCard(context: MetadataContext, title: string): PageMetadataProps['openGraph'] {
  const image = socialImage(context, SITE_IMAGE_CONTENT_URL, context.siteName);
  return image ? { title, type: 'website', image } : undefined;
}

/** Home: indexed, `WebSite` with the site search as `SearchAction`. */
export function homeMetadata(context: MetadataContext, searchPath: string): PageMetadataProps {
  const canonicalUrl = `${context.origin}/`;
  const openGraph = siteCard(context, context.siteName);
  return {
    robots: 'index',
    canonicalUrl,
    description: SITE_DESCRIPTION,
    ...(openGraph ? { openGraph } : {}),
    structuredData: [webSiteJsonLd({ siteName: context.siteName, origin: context.origin, searchPath, description: SITE_DESCRIPTION })],
  };
}

/** An article: indexed, its own card and image, `Article` and `BreadcrumbList`. */
export function articleMetadata(context: MetadataContext, article: Article): PageMetadataProps {
  const canonicalUrl = `${context.origin}${article.url}`;
  const description = clampDescription(article.intro);
  const image = socialImage(context, article.image, article.imageAlt);
  const own = context.images.resolve(article.image);
  const logo = context.images.resolve(SITE_IMAGE_CONTENT_URL);
  const imageUrls = [...(image ? [image.url] : []), ...(own ? [`${context.origin}${own.src}`] : [])];
  return {
    robots: 'index',
    canonicalUrl,
    description,
    ...(image
      ? {
          openGraph: {
            title: article.title,
            type: 'article' as const,
            image,
            publishedTime: articlePublishedAt(article).toISOString(),
            modifiedTime: articleModifiedAt(article).toISOString(),
            tags: article.topic,
          },
        }
      : {}),
    structuredData: [
      articleJsonLd({ article, siteName: context.siteName, origin: context.origin, imageUrls, logoUrl: logo ? `${context.origin}${logo.socialPng.src}` : `${context.origin}/favicon.ico` }),
      articleBreadcrumbJsonLd({ article, siteName: context.siteName, origin: context.origin }),
    ],
  };
}

/** What a slice declares about one of its pages' metadata (its manifest's `remote.pages`). */
export interface SlicePageMetadataDeclaration {
  path: string;
  title: string;
  /** `{siteName}` is replaced by the site's name. */
  description?: string;
  robots: 'index' | 'noindex' | 'noindex-with-query';
}

/**
 * A page a slice declares: `noindex` when its manifest says so; else indexed, with its canonical
 * address (never the query's), its description and the site's card. `noindex-with-query` (the
 * search page) is `noindex` for a query: endless, thin variants of the articles themselves.
 */
export function slicePageMetadata(context: MetadataContext, page: SlicePageMetadataDeclaration, query: string): PageMetadataProps {
  if (page.robots === 'noindex') return noindexMetadata();
  const canonicalUrl = `${context.origin}${page.path}`;
  const openGraph = siteCard(context, `${page.title} · ${context.siteName}`);
  const description = page.description?.replaceAll('{siteName}', context.siteName);
  return {
    robots: page.robots === 'noindex-with-query' && query.trim() ? 'noindex' : 'index',
    canonicalUrl,
    ...(description ? { description } : {}),
    ...(openGraph ? { openGraph } : {}),
  };
}

/** An indexed page of the site without an image of its own (the contact page). */
export function sitePageMetadata(context: MetadataContext, path: string, title: string, description: string): PageMetadataProps {
  const canonicalUrl = `${context.origin}${path}`;
  const openGraph = siteCard(context, title);
  return { robots: 'index', canonicalUrl, description, ...(openGraph ? { openGraph } : {}) };
}

/** A page that must not be listed (a visitor's watchlist, a shared one, a confirmation, an error page). */
export function noindexMetadata(description?: string): PageMetadataProps {
  return { robots: 'noindex', ...(description ? { description } : {}) };
}
