import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** URL prefix of content-hashed, immutable images (`/images/<name>.<hash>.<ext>`). */
export const HASHED_IMAGES_PREFIX = '/images/';

/** Width of the PNG rendition of an image for social cards (Open Graph, Twitter): 1200 px, as both recommend. */
export const SOCIAL_IMAGE_WIDTH = 1200;

/** An image of the content store as pages reference it. */
export interface CatalogueImage {
  /** Its content-hashed URL on this site (`/images/topic-leadership.1a2b3c4d5e6f.svg`), served immutable. */
  src: string;
  /** Intrinsic width in CSS pixels (an SVG's `width`, else its `viewBox` width). */
  width: number;
  height: number;
  /** MIME type, e.g. `image/svg+xml`. */
  type: string;
  /** Content-hashed URL of its PNG rendition {@link SOCIAL_IMAGE_WIDTH} wide (social networks do not show SVG). */
  socialPng: { src: string; width: number; height: number };
}

/** The file behind a hashed URL. */
export interface CatalogueFile {
  file: string;
  type: string;
  /** `png-rendition`: the PNG rendered from `file` on request. */
  kind: 'original' | 'png-rendition';
  /** Size of the rendition (for `png-rendition`). */
  width: number;
  height: number;
}

export interface ImageCatalogue {
  /** The image a content URL (`/content-images/x.svg`) names, or undefined when the store has no such file. */
  resolve(contentUrl: string): CatalogueImage | undefined;
  /** The file a hashed image name (`x.<hash>.svg` / `.png`) stands for, or undefined. */
  fileOf(hashedName: string): CatalogueFile | undefined;
}

const TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
};

/**
 * An SVG's intrinsic size: its `width`/`height` attributes when both are plain numbers (or px),
 * else its `viewBox`. Undefined when neither says it (such an SVG has no size of its own).
 */
export function svgIntrinsicSize(svg: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (!root) return undefined;
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1]?.trim();
  const length = (value: string | undefined) => {
    const match = value ? /^(\d+(?:\.\d+)?)(px)?$/.exec(value) : null;
    return match ? Number(match[1]) : undefined;
  };
  const width = length(attribute('width'));
  const height = length(attribute('height'));
  if (width && height) return { width: Math.round(width), height: Math.round(height) };
  const viewBox = attribute('viewBox')?.split(/[\s,]+/).map(Number);
  if (viewBox?.length === 4 && viewBox.every(Number.isFinite) && viewBox[2]! > 0 && viewBox[3]! > 0) {
    return { width: Math.round(viewBox[2]!), height: Math.round(viewBox[3]!) };
  }
  return undefined;
}

/**
 * Indexes the images of one content folder once (hash and size of each file), so pages reference
 * them by content hash: a changed image gets a new URL, so each URL can be cached for ever.
 * Files whose size cannot be read (a raster image, an SVG without size) are left out: a page
 * keeps its content URL for them.
 */
export function createImageCatalogue(options: { dir: string; contentBaseUrl: string }): ImageCatalogue {
  const byContentUrl = new Map<string, CatalogueImage>();
  const byHashedName = new Map<string, CatalogueFile>();
  for (const name of readdirSync(options.dir)) {
    const extension = path.extname(name).toLowerCase();
    if (extension !== '.svg') continue; // raster images: no reader of their size yet, they keep their content URL
    const file = path.join(options.dir, name);
    const bytes = readFileSync(file);
    const size = svgIntrinsicSize(bytes.toString('utf8'));
    if (!size) continue;
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    const stem = path.basename(name, extension);
    const hashedName = `${stem}.${hash}${extension}`;
    const pngName = `${stem}.${hash}.png`;
    const pngSize = { width: SOCIAL_IMAGE_WIDTH, height: Math.round((SOCIAL_IMAGE_WIDTH * size.height) / size.width) };
    byHashedName.set(hashedName, { file, type: TYPES[extension]!, kind: 'original', ...size });
    byHashedName.set(pngName, { file, type: 'image/png', kind: 'png-rendition', ...pngSize });
    byContentUrl.set(`${options.contentBaseUrl}/${name}`, {
      src: `${HASHED_IMAGES_PREFIX}${hashedName}`,
      ...size,
      type: TYPES[extension]!,
      socialPng: { src: `${HASHED_IMAGES_PREFIX}${pngName}`, ...pngSize },
    });
  }
  return {
    resolve: (contentUrl) => byContentUrl.get(contentUrl),
    fileOf: (hashedName) => byHashedName.get(hashedName),
  };
}
