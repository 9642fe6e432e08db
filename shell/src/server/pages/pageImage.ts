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
  return (contentUrl) => {
    const image = images.resolve(contentUrl);
    if (!image) return { src: contentUrl, ...FALLBACK_SIZE };
    return { src: image.src, width: image.width, height: image.height, ...(image.srcset ? { srcset: image.srcset } : {}) };
  };
}

/** `sizes` of the article page's image: the article column (48rem less its 1.5rem padding), or the viewport less the margins. */
export const ARTICLE_IMAGE_SIZES = '(min-width: 50rem) 45rem, calc(100vw - 5rem)';

/** `sizes` of a teaser's image: a column of the teaser grid (up to three in the 72rem page). */
export const TEASER_IMAGE_SIZES = '(min-width: 72rem) 23rem, (min-width: 40rem) 50vw, 100vw';
