import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ARTICLE_IMAGE_EXTENSIONS, articleImageUrl } from '@khs/content';
import { imageSize } from 'image-size';
import sharp from 'sharp';

/** URL prefix of content-hashed, immutable images (`/images/<name>.<hash>.<ext>`). */
export const HASHED_IMAGES_PREFIX = '/images/';

/** Width of the PNG rendition of an image for social cards (Open Graph, Twitter): 1200 px, as both recommend. */
export const SOCIAL_IMAGE_WIDTH = 1200;

/** Widths of the WebP renditions a raster image gets for `srcset` (only those narrower than the original). */
export const RESPONSIVE_WIDTHS = [480, 960, 1440] as const;

/** An image of the content store as pages reference it. */
export interface CatalogueImage {
  /** Its content-hashed URL on this site (`/images/topic-leadership.1a2b3c4d5e6f.svg`), served immutable. */
  src: string;
  /** Intrinsic width in CSS pixels (an SVG's `width`, else its `viewBox` width). */
  width: number;
  height: number;
  /** MIME type, e.g. `image/svg+xml`. */
  type: string;
  /**
   * For raster images: `srcset` of its WebP renditions ({@link RESPONSIVE_WIDTHS} narrower than
   * it) and the original, by width. Undefined for SVG (one file fits every size).
   */
  srcset?: string;
  /** Content-hashed URL of its PNG rendition {@link SOCIAL_IMAGE_WIDTH} wide (social networks do not show SVG). */
  socialPng: { src: string; width: number; height: number };
}

/** The file behind a hashed URL. */
export interface CatalogueFile {
  file: string;
  type: string;
  /** `rendition`: rendered from `file` on request, at `width`×`height`, as `type`. */
  kind: 'original' | 'rendition';
  /** Size of the rendition (for `png-rendition`). */
  width: number;
  height: number;
}

export interface ImageCatalogue {
  /**
   * The image a content URL (`/content-images/x.svg`, or `/content-article-images/2026/cover.png`
   * for one next to the articles) names, or undefined when the store has no such file.
   */
  resolve(contentUrl: string): CatalogueImage | undefined;
  /** The file a hashed image name (`x.<hash>.svg`, `x.<hash>.1200w.png`, `x.<hash>.480w.webp`) stands for, or undefined. */
  fileOf(hashedName: string): CatalogueFile | undefined;
  /**
   * Indexes the images next to the articles again (added, changed and removed files; unchanged
   * ones are not read again). Synchronous, so called from the content store's change notification
   * it is done before the next page is rendered. A catalogue without an article folder ignores it.
   */
  refreshArticleImages?(): void;
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

/** Settings of {@link createImageCatalogue}. */
export interface ImageCatalogueOptions {
  /** The shared image folder (`content/images`). */
  dir: string;
  /** URL prefix under which `dir` is served (`/content-images`). */
  contentBaseUrl: string;
  /**
   * The article folder (`CONTENT_DIR`): its images (next to the articles, any depth) are indexed
   * too, by their `/content-article-images/<path>` URL. Default: none.
   */
  articlesDir?: string;
}

/** Maps one indexed image fills: content URL → image, hashed name → file. */
interface CatalogueMaps {
  byContentUrl: Map<string, CatalogueImage>;
  byHashedName: Map<string, CatalogueFile>;
}

/** An image file next to the articles as last indexed (kept to skip unchanged files on refresh). */
interface IndexedArticleImage {
  mtimeMs: number;
  bytes: number;
  hash: string;
  size: { width: number; height: number } | undefined;
}

/**
 * Indexes the images of the shared content folder once and those next to the articles on start
 * and on each {@link ImageCatalogue.refreshArticleImages} (hash and size of each file), so pages
 * reference them by content hash: a changed image gets a new URL, so each URL can be cached for ever.
 * SVGs are sized from their `width`/`height` or `viewBox` (one without either is left out: pages
 * keep its content URL); raster images (PNG, JPEG, WebP, AVIF) from their header, and get
 * narrower WebP renditions for `srcset`.
 */
export async function createImageCatalogue(options: ImageCatalogueOptions): Promise<ImageCatalogue> {
  const shared: CatalogueMaps = { byContentUrl: new Map(), byHashedName: new Map() };
  for (const name of readdirSync(options.dir).sort()) {
    const extension = path.extname(name).toLowerCase();
    const type = TYPES[extension];
    if (!type || extension === '.gif') continue;
    const file = path.join(options.dir, name);
    const bytes = readFileSync(file);
    const size = extension === '.svg' ? svgIntrinsicSize(bytes.toString('utf8')) : await rasterSize(bytes);
    if (!size) continue;
    addImage(shared, { file, contentUrl: `${options.contentBaseUrl}/${name}`, hash: contentHash(bytes), size });
  }

  const { articlesDir } = options;
  let nextToArticles: CatalogueMaps = { byContentUrl: new Map(), byHashedName: new Map() };
  const indexedArticleImages = new Map<string, IndexedArticleImage>();
  const refreshArticleImages = (): void => {
    if (!articlesDir) return;
    const maps: CatalogueMaps = { byContentUrl: new Map(), byHashedName: new Map() };
    const seen = new Set<string>();
    for (const relativePath of listArticleImages(articlesDir)) {
      const file = path.join(articlesDir, relativePath);
      let indexed = indexedArticleImages.get(relativePath);
      try {
        const stats = statSync(file);
        if (!indexed || indexed.mtimeMs !== stats.mtimeMs || indexed.bytes !== stats.size) {
          const bytes = readFileSync(file);
          indexed = { mtimeMs: stats.mtimeMs, bytes: stats.size, hash: contentHash(bytes), size: path.extname(file).toLowerCase() === '.svg' ? svgIntrinsicSize(bytes.toString('utf8')) : rasterSizeSync(bytes) };
          indexedArticleImages.set(relativePath, indexed);
        }
      } catch {
        continue; // removed between the listing and the read
      }
      seen.add(relativePath);
      if (indexed.size) addImage(maps, { file, contentUrl: articleImageUrl(relativePath), hash: indexed.hash, size: indexed.size });
    }
    for (const relativePath of indexedArticleImages.keys()) if (!seen.has(relativePath)) indexedArticleImages.delete(relativePath);
    nextToArticles = maps;
  };
  refreshArticleImages();

  return {
    resolve: (contentUrl) => shared.byContentUrl.get(contentUrl) ?? nextToArticles.byContentUrl.get(contentUrl),
    fileOf: (hashedName) => shared.byHashedName.get(hashedName) ?? nextToArticles.byHashedName.get(hashedName),
    refreshArticleImages,
  };
}

function contentHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

/** Adds an image, its original and its renditions under their hashed names. */
function addImage(maps: CatalogueMaps, image: { file: string; contentUrl: string; hash: string; size: { width: number; height: number } }): void {
  const { file, size } = image;
  const extension = path.extname(file).toLowerCase();
  const type = TYPES[extension]!;
  const stem = `${path.basename(file, path.extname(file))}.${image.hash}`;
  const scaled = (width: number) => ({ width, height: Math.max(1, Math.round((width * size.height) / size.width)) });
  maps.byHashedName.set(`${stem}${extension}`, { file, type, kind: 'original', ...size });
  maps.byHashedName.set(`${stem}.${SOCIAL_IMAGE_WIDTH}w.png`, { file, type: 'image/png', kind: 'rendition', ...scaled(SOCIAL_IMAGE_WIDTH) });
  let srcset: string | undefined;
  if (extension !== '.svg') {
    const widths = RESPONSIVE_WIDTHS.filter((width) => width < size.width);
    for (const width of widths) maps.byHashedName.set(`${stem}.${width}w.webp`, { file, type: 'image/webp', kind: 'rendition', ...scaled(width) });
    srcset = [...widths.map((width) => `${HASHED_IMAGES_PREFIX}${stem}.${width}w.webp ${width}w`), `${HASHED_IMAGES_PREFIX}${stem}${extension} ${size.width}w`].join(', ');
  }
  maps.byContentUrl.set(image.contentUrl, {
    src: `${HASHED_IMAGES_PREFIX}${stem}${extension}`,
    ...size,
    type,
    ...(srcset ? { srcset } : {}),
    socialPng: { src: `${HASHED_IMAGES_PREFIX}${stem}.${SOCIAL_IMAGE_WIDTH}w.png`, ...scaled(SOCIAL_IMAGE_WIDTH) },
  });
}

/**
 * The image files below the article folder, as paths relative to it (`2026/cover.png`). Hidden
 * entries and symbolic links are skipped (a link could lead out of the folder).
 */
function listArticleImages(dir: string, relative = ''): string[] {
  const found: string[] = [];
  let entries;
  try {
    entries = readdirSync(path.join(dir, relative), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listArticleImages(dir, child));
    else if (entry.isFile() && (ARTICLE_IMAGE_EXTENSIONS as readonly string[]).includes(path.extname(entry.name).toLowerCase())) found.push(child);
  }
  return found;
}

/** A raster image's size from its header, read synchronously; undefined when it is not one. */
function rasterSizeSync(bytes: Buffer): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** A raster image's size from its header; undefined when sharp cannot read it. */
async function rasterSize(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const { width, height } = await sharp(bytes).metadata();
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
