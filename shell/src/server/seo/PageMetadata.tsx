import { serializeJsonForHtml } from '../federation/serializeJsonForHtml.js';
import { FEED_PATH, SITE_DESCRIPTION } from './siteMetadata.js';
import type { JsonLd } from './structuredData.js';

/** An image as social networks read it (absolute URL, raster). */
export interface SocialImage {
  url: string;
  width: number;
  height: number;
  type: string;
  alt: string;
}

/** What a page tells search engines and social networks (`Layout`'s `metadata`). */
export interface PageMetadataProps {
  /** Meta description (and `og:description`). Default {@link SITE_DESCRIPTION}. */
  description?: string;
  /**
   * `index`: the page may be listed (then it needs `canonicalUrl`); `noindex`: kept out of search
   * results, its links still followed. Default `noindex`: a page lists itself only by saying so.
   */
  robots?: 'index' | 'noindex';
  /** Absolute canonical URL on the link origin (also `og:url`). Default none. */
  canonicalUrl?: string;
  /** Open Graph / Twitter card: title, type and image. Default none (no card). */
  openGraph?: {
    title: string;
    type: 'website' | 'article';
    image: SocialImage;
    /** For `type: 'article'`: ISO dates and tags (`article:*`). */
    publishedTime?: string;
    modifiedTime?: string;
    tags?: readonly string[];
  };
  /** JSON-LD objects, one `<script type="application/ld+json">` each. Default none. */
  structuredData?: readonly JsonLd[];
}

/**
 * The head tags of {@link PageMetadataProps}, plus the site name and the link to the Atom feed
 * that every page carries.
 */
export function PageMetadata({ siteName, description = SITE_DESCRIPTION, robots = 'noindex', canonicalUrl, openGraph, structuredData = [] }: PageMetadataProps & { siteName: string }) {
  return (
    <>
      <meta name="description" content={description} />
      {robots === 'noindex' ? <meta name="robots" content="noindex" /> : null}
      {canonicalUrl ? <link rel="canonical" href={canonicalUrl} /> : null}
      <link rel="alternate" type="application/atom+xml" title={`${siteName}: latest articles`} href={FEED_PATH} />
      {openGraph ? (
        <>
          <meta property="og:site_name" content={siteName} />
          <meta property="og:title" content={openGraph.title} />
          <meta property="og:type" content={openGraph.type} />
          {canonicalUrl ? <meta property="og:url" content={canonicalUrl} /> : null}
          <meta property="og:description" content={description} />
          <meta property="og:image" content={openGraph.image.url} />
          <meta property="og:image:type" content={openGraph.image.type} />
          <meta property="og:image:width" content={String(openGraph.image.width)} />
          <meta property="og:image:height" content={String(openGraph.image.height)} />
          <meta property="og:image:alt" content={openGraph.image.alt} />
          <meta property="og:locale" content="en" />
          {openGraph.publishedTime ? <meta property="article:published_time" content={openGraph.publishedTime} /> : null}
          {openGraph.modifiedTime ? <meta property="article:modified_time" content={openGraph.modifiedTime} /> : null}
          {(openGraph.tags ?? []).map((tag) => (
            <meta key={tag} property="article:tag" content={tag} />
          ))}
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:title" content={openGraph.title} />
          <meta name="twitter:description" content={description} />
          <meta name="twitter:image" content={openGraph.image.url} />
          <meta name="twitter:image:alt" content={openGraph.image.alt} />
        </>
      ) : null}
      {structuredData.map((data, index) => (
        // serializeJsonForHtml escapes `<`, so no value can end the script element.
        <script key={index} type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonForHtml(data) }} />
      ))}
    </>
  );
}
