import type { Article } from '../content/contentStore.js';
import { ArticleMeta } from './ArticleMeta.js';
import { Slot } from './Slot.js';
import { TopicTags } from './TopicTags.js';
import { ARTICLE_IMAGE_SIZES, type PageImage, withCatalogueImages } from './pageImage.js';
import { articleSlotContext } from '../slots/articleSlotContext.js';

export interface ArticlePageProps {
  article: Article;
  /** The article's image: content-hashed URL and intrinsic size. Default: its content URL, sized 1280×720. */
  image?: PageImage;
  /**
   * The hashed URL and size of a content image (body images, the gallery, the video poster), or
   * undefined for one the catalogue does not know (kept as written). Default: none known.
   */
  resolveImage?: (contentUrl: string) => PageImage | undefined;
}

/**
 * A full article: image, topics, date, reading time, body; the slices' islands in its slots
 * (`article.header.actions`, `article.after-body`), each reading what it needs beyond the slot's
 * context itself (`IslandServerModule.serverProps`).
 */
export function ArticlePage({ article, image = { src: article.image, width: 1280, height: 720 }, resolveImage = () => undefined }: ArticlePageProps) {
  // Articles from files carry their body as safe HTML (Markdown rendered without raw HTML by the
  // content store); generated benchmark articles have plain paragraphs.
  const paragraphs = article.bodyHtml === undefined ? article.content.split(/\n{2,}/).filter((p) => p.trim().length > 0) : [];
  return (
    <>
      <div className="reading-progress" data-reading-progress="" aria-hidden="true">
        <div className="reading-progress__bar" />
      </div>
      <article className="article" data-article-body="">
        <header className="article__header">
          {article.subline ? <p className="article__subline">{article.subline}</p> : null}
          <h1 className="article__title">{article.headline || article.title}</h1>
          <ArticleMeta className="article__meta" date={article.date} readingTime={article.readingTime} />
          <TopicTags topics={article.topic} />
          <Slot name="article.header.actions" context={articleSlotContext(article)} />
        </header>
        <figure className="article__figure">
          <img
            src={image.src}
            {...(image.srcset ? { srcSet: image.srcset, sizes: ARTICLE_IMAGE_SIZES } : {})}
            alt={article.imageAlt}
            width={image.width}
            height={image.height}
          />
        </figure>
        <p className="article__intro">{article.intro}</p>
        {article.bodyHtml !== undefined ? (
          <div className="article__content" dangerouslySetInnerHTML={{ __html: withCatalogueImages(article.bodyHtml, resolveImage) }} />
        ) : (
          <div className="article__content">
            {paragraphs.map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </div>
        )}
        <Slot name="article.after-body" context={articleSlotContext(article)} />
      </article>
    </>
  );
}
