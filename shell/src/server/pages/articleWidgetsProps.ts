import { CONTENT_IMAGES_BASE_URL, SITE_INTRO_VIDEO_URL, TOPICS, topicSlug } from '@khs/content';
import type { Article } from '../content/contentStore.js';
import { formatDate } from './format.js';

/** The site's topics with their images, in the site's order (built once). */
const SITE_TOPICS = TOPICS.map((name) => ({ name, image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(name)}.svg` }));

/**
 * Server-only props of the `mf-widgets/ArticleWidgets` island: what the remote builds the
 * article's widget markup from (never written into the page).
 */
export function articleWidgetsProps(article: Article): Record<string, unknown> {
  return {
    article: {
      title: article.title,
      headline: article.headline,
      url: article.url,
      intro: article.intro,
      content: article.content,
      readingTime: article.readingTime,
      image: article.image,
      topic: article.topic,
      gallery: article.gallery ?? [],
    },
    siteTopics: SITE_TOPICS,
    introVideoUrl: SITE_INTRO_VIDEO_URL,
    dateLabel: formatDate(article.date),
  };
}
