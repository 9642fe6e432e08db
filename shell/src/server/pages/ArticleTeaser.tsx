import type { Article } from '../content/contentStore.js';
import { ArticleMeta } from './ArticleMeta.js';
import { Slot } from './Slot.js';
import { TopicTags } from './TopicTags.js';
import { TEASER_IMAGE_SIZES, type PageImage } from './pageImage.js';
import { articleSlotContext } from '../slots/articleSlotContext.js';

export interface ArticleTeaserProps {
  article: Article;
  /** Heading level of the title inside the list. Default 2. */
  headingLevel?: 2 | 3;
  /** The article's image: content-hashed URL and intrinsic size. Default: its content URL, sized 16:9. */
  image?: PageImage;
}

/** A card linking to an article, with the islands of its `teaser.actions` slot. */
export function ArticleTeaser({ article, headingLevel = 2, image = { src: article.image, width: 640, height: 360 } }: ArticleTeaserProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="teaser">
      <img
        className="teaser__image"
        src={image.src}
        {...(image.srcset ? { srcSet: image.srcset, sizes: TEASER_IMAGE_SIZES } : {})}
        alt=""
        width={image.width}
        height={image.height}
        loading="lazy"
      />
      <div className="teaser__body">
        {article.subline ? <p className="teaser__subline">{article.subline}</p> : null}
        <Heading className="teaser__title">
          <a href={article.url}>{article.headline || article.title}</a>
        </Heading>
        <p className="teaser__intro">{article.intro}</p>
        <TopicTags topics={article.topic} />
        <ArticleMeta className="teaser__meta" date={article.date} readingTime={article.readingTime} />
        <Slot name="teaser.actions" context={articleSlotContext(article)} />
      </div>
    </article>
  );
}
