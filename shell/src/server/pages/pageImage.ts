import type { ImageCatalogue } from '../seo/imageCatalogue.js';

/** An image as a page's `<img>` writes it: its URL and intrinsic size (no layout shift). */
export interface PageImage {
  src: string;
  width: number;
  height: number;
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
    return image ? { src: image.src, width: image.width, height: image.height } : { src: contentUrl, ...FALLBACK_SIZE };
  };
}
