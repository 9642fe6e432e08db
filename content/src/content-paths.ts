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

/** Absolute path of `content/media` (videos); the shell serves it at {@link CONTENT_MEDIA_BASE_URL}. */
export const contentMediaDir: string = path.join(HERE, '../media');

/** Site URL prefix under which `contentMediaDir` is served. */
export const CONTENT_MEDIA_BASE_URL = '/content-media';

/** The site's short intro video (6 s, VP9 WebM, rendered by `scripts/render-intro-video.sh`). */
export const SITE_INTRO_VIDEO_URL = `${CONTENT_MEDIA_BASE_URL}/site-intro.webm`;
