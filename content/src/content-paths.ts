import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This module's folder as a path (jsdom's URL class cannot be turned into a path, so no URL objects here).
const HERE: string = import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url));

/** Absolute path of the checkout's article folder (`content/articles`, one `<id>.md` per article). */
export const defaultArticlesDir: string = path.join(HERE, '../articles');

/**
 * The article folder to serve: `CONTENT_DIR` when set (tests point the stack at a temporary copy),
 * else {@link defaultArticlesDir}.
 */
export function articlesDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.CONTENT_DIR ? path.resolve(env.CONTENT_DIR) : defaultArticlesDir;
}

/** Absolute path of the survey definitions. */
export const surveysFile: string = path.join(HERE, '../data/surveys.json');

/** Absolute path of `content/images`; the shell serves it at {@link CONTENT_IMAGES_BASE_URL}. */
export const contentImagesDir: string = path.join(HERE, '../images');

/** Site URL prefix under which `contentImagesDir` is served. */
export const CONTENT_IMAGES_BASE_URL = '/content-images';

/**
 * Site URL prefix of the images that live next to the articles (`image: ./cover.png` in
 * `CONTENT_DIR/2026/x.md` is `/content-article-images/2026/cover.png`). The shell serves only
 * image files under it, never the Markdown.
 */
export const CONTENT_ARTICLE_IMAGES_BASE_URL = '/content-article-images';

/** File extensions an image next to an article may have (what the shell can size and serve). */
export const ARTICLE_IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.avif', '.svg'] as const;

/**
 * The site URL of an image next to the articles, from its path relative to the article folder
 * (`2026/cover chart.png` → `/content-article-images/2026/cover%20chart.png`). The content store
 * writes it into articles and the shell's image catalogue keys by it: one spelling for both.
 */
export function articleImageUrl(relativePath: string): string {
  return `${CONTENT_ARTICLE_IMAGES_BASE_URL}/${relativePath.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The path relative to the article folder that an {@link articleImageUrl} names, or undefined when
 * the URL is not one (another prefix, bad percent-encoding, a `..` or empty segment).
 */
export function articleImagePathOf(url: string): string | undefined {
  if (!url.startsWith(`${CONTENT_ARTICLE_IMAGES_BASE_URL}/`)) return undefined;
  let segments: string[];
  try {
    segments = url.slice(CONTENT_ARTICLE_IMAGES_BASE_URL.length + 1).split(/[?#]/)[0]!.split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || /[\\\0]/.test(segment))) return undefined;
  return segments.join('/');
}

/** Absolute path of `content/media` (videos); the shell serves it at {@link CONTENT_MEDIA_BASE_URL}. */
export const contentMediaDir: string = path.join(HERE, '../media');

/** Site URL prefix under which `contentMediaDir` is served. */
export const CONTENT_MEDIA_BASE_URL = '/content-media';

/** The site's short intro video (6 s, VP9 WebM, rendered by `scripts/render-intro-video.sh`). */
export const SITE_INTRO_VIDEO_URL = `${CONTENT_MEDIA_BASE_URL}/site-intro.webm`;
