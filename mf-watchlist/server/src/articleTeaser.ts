import type { Teaser } from 'contracts';
import type { Article } from '@khs/content';

/** Labels of a teaser's watchlist button (the site's i18n add/remove texts). */
export interface TeaserLabels {
  add: string;
  remove: string;
}

/**
 * The teaser the watchlist screen shows for an article: the first topic as overline, every
 * topic as a tag, the article page as link.
 */
export function articleTeaser(article: Article, labels: TeaserLabels): Teaser {
  return {
    id: article.id,
    overline: article.topic[0] ?? '',
    title: article.title,
    href: article.url,
    tags: article.topic.map((title) => ({ title })),
    intro: article.intro,
    image: { src: article.image, srcSet: `${article.image} 1x`, alt: article.imageAlt },
    cta: article.cta,
    labels: { add: labels.add, remove: labels.remove },
  };
}
