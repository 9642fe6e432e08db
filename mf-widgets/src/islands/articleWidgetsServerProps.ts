import { CONTENT_IMAGES_BASE_URL, SITE_INTRO_VIDEO_URL, TOPICS, topicSlug, type Article } from '@khs/content';
import type { IslandServerContext, IslandServerProps } from 'contracts';
import type { ArticleWidgetsProps } from '../markup/ArticleWidgets.js';

/** The site's topics with their images, in the site's order (built once). */
const SITE_TOPICS = TOPICS.map((name) => ({ name, image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(name)}.svg` }));

/** "12 March 2026", as the site writes dates. */
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * What the ArticleWidgets island builds the article's widget markup from, read by this slice on the
 * shell's server from the page's article (`context.content`; its slot gives the article's id): the
 * article's text, topics and gallery, the site's topics and intro video, the date as the site
 * writes it. The gallery's pictures and the video poster carry the URLs the site serves them at
 * (content-hashed), the pictures their size and `srcset`. `null` (nothing to show) for an
 * article the page cannot read.
 */
export function articleWidgetsServerProps(props: Record<string, unknown>, { content }: Pick<IslandServerContext, 'content'>): IslandServerProps {
  const article = typeof props.articleId === 'string' ? (content?.article(props.articleId) as Article | undefined) : undefined;
  if (!article || !content) return null;
  const widgetProps: ArticleWidgetsProps = {
    article: {
      title: article.title,
      headline: article.headline,
      url: article.url,
      intro: article.intro,
      content: article.content,
      readingTime: article.readingTime,
      image: content.image(article.image)?.src ?? article.image,
      topic: article.topic,
      gallery: (article.gallery ?? []).map((picture) => {
        const image = content.image(picture.src);
        return image ? { ...picture, ...image } : picture;
      }),
    },
    siteTopics: SITE_TOPICS,
    introVideoUrl: SITE_INTRO_VIDEO_URL,
    dateLabel: DATE_FORMAT.format(new Date(article.date * 1000)),
  };
  return { ...widgetProps };
}
