import { CONTENT_IMAGES_BASE_URL, SITE_INTRO_VIDEO_URL, TOPICS, topicSlug } from '@khs/content';
import type { Article } from '../content/contentStore.js';
import { formatDate } from './format.js';
import type { PageImage } from './pageImage.js';

/** The site's topics with their images, in the site's order (built once). */
const SITE_TOPICS = TOPICS.map((name) => ({ name, image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(name)}.svg` }));

/**
 * Server-only props of the `mf-widgets/ArticleWidgets` island: what the remote builds the
 * article's widget markup from (never written into the page). The gallery's pictures and the
 * video poster carry their content-hashed URLs, and the pictures their size and `srcset`.
 *
 * @param resolveImage the hashed URL and size of a content image, undefined when unknown (the
 *   picture keeps its URL and the gallery's default size). Default: none known.
 */
export function articleWidgetsProps(article: Article, resolveImage: (contentUrl: string) => PageImage | undefined = () => undefined): Record<string, unknown> {
  return {
    article: {
      title: article.title,
      headline: article.headline,
      url: article.url,
      intro: article.intro,
      content: article.content,
      readingTime: article.readingTime,
      image: resolveImage(article.image)?.src ?? article.image,
      topic: article.topic,
      gallery: (article.gallery ?? []).map((picture) => {
        const image = resolveImage(picture.src);
        return image ? { ...picture, ...image } : picture;
      }),
    },
    siteTopics: SITE_TOPICS,
    introVideoUrl: SITE_INTRO_VIDEO_URL,
    dateLabel: formatDate(article.date),
  };
}
