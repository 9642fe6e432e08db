import type { ImageCatalogue } from '../seo/imageCatalogue.js';

/** An image as a page's `<img>` writes it: its URL and intrinsic size (no layout shift). */
export interface PageImage {
  src: string;
  width: number;
  height: number;
  /** Raster images: its renditions by width (`srcset`); the page adds `sizes`. Undefined for SVG. */
  srcset?: string;
}

/** Size assumed for an image the catalogue does not know (the site's images are 16:9). */
const FALLBACK_SIZE = { width: 1280, height: 720 };

/**
 * Resolves content image URLs to their content-hashed URL and intrinsic size; one the catalogue
 * does not know keeps its URL and is sized 16:9 (what the site's images are).
 */
export function pageImageOf(images: ImageCatalogue): (contentUrl: string) => PageImage {
  const known = knownPageImageOf(images);
  return (contentUrl) => known(contentUrl) ?? { src: contentUrl, ...FALLBACK_SIZE };
}

/** Resolves content image URLs to their content-hashed URL and intrinsic size; undefined for one the catalogue does not know. */
export function knownPageImageOf(images: ImageCatalogue): (contentUrl: string) => PageImage | undefined {
  return (contentUrl) => {
    const image = images.resolve(contentUrl);
    if (!image) return undefined;
    return { src: image.src, width: image.width, height: image.height, ...(image.srcset ? { srcset: image.srcset } : {}) };
  };
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeAttribute = (value: string) => value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * An article body's HTML (markdown-it's, raw HTML off: every `<img>` is its `<img src="…" alt="…">`
 * with an optional `title`) with each image the catalogue knows written by its hashed URL, width
 * and height (no layout shift), `srcset`/`sizes` for raster images, and loaded lazily. Images it
 * does not know (an https:// one) are left as they are.
 */
export function withCatalogueImages(bodyHtml: string, resolveImage: (contentUrl: string) => PageImage | undefined, sizes: string = ARTICLE_IMAGE_SIZES): string {
  return bodyHtml.replace(/<img src="([^"]*)" alt="([^"]*)"((?: title="[^"]*")?)>/g, (tag, src: string, alt: string, title: string) => {
    const image = resolveImage(unescapeAttribute(src));
    if (!image) return tag;
    const responsive = image.srcset ? ` srcset="${escapeAttribute(image.srcset)}" sizes="${escapeAttribute(sizes)}"` : '';
    return `<img src="${escapeAttribute(image.src)}" alt="${alt}"${title} width="${image.width}" height="${image.height}"${responsive} loading="lazy" decoding="async">`;
  });
}

/** `sizes` of the article page's image: the article column (48rem less its 1.5rem padding), or the viewport less the margins. */
export const ARTICLE_IMAGE_SIZES = '(min-width: 50rem) 45rem, calc(100vw - 5rem)';

/** `sizes` of a teaser's image: a column of the teaser grid (up to three in the 72rem page). */
export const TEASER_IMAGE_SIZES = '(min-width: 72rem) 23rem, (min-width: 40rem) 50vw, 100vw';
