import {
  articleParagraphs,
  competenceCards,
  firstSentence,
  topicSearchHref,
  wordCount,
  type SiteTopic,
  type WidgetArticle,
} from './articleWidgetContent.js';
import { CompetenceSlider } from './CompetenceSlider.js';
import { Dialog, DialogTrigger } from './Dialog.js';
import { Gallery } from './Gallery.js';
import { HorizontalScroller } from './HorizontalScroller.js';
import { ScrollTable } from './ScrollTable.js';
import { Tabs } from './Tabs.js';
import { Video } from './Video.js';

/** Ids of the article's widget sections (the "In this article" navigation links to them). */
export const ARTICLE_SECTION_IDS = {
  contents: 'article-contents',
  takeaways: 'article-takeaways',
  gallery: 'article-gallery',
  video: 'article-video',
  glance: 'article-at-a-glance',
  competences: 'article-competences',
  topics: 'article-topics',
  cite: 'article-cite',
} as const;

/** Key points shown in the takeaways tab. */
const KEY_POINTS = 4;

/** Trigger of the "In this article" navigation dialog, for the article header. */
export function ArticleContentsTrigger() {
  return (
    <DialogTrigger dialogId={ARTICLE_SECTION_IDS.contents} className="khs-widgets-contents-trigger">
      In this article
    </DialogTrigger>
  );
}

/**
 * The page widgets of an article, with content derived from the article: key-takeaways tabs,
 * the article's gallery, a video with the article image as poster, an at-a-glance table, a
 * competence slider, a topic row, a citation dialog and the "In this article" navigation dialog.
 * Everything reads in order without script; mf-widgets enhances it.
 */
export interface ArticleWidgetsProps {
  article: WidgetArticle;
  /** Every topic of the site, in the site's order. */
  siteTopics: SiteTopic[];
  /** The site's intro video. */
  introVideoUrl: string;
  /** The article's date as the site writes it, e.g. "12 March 2026". */
  dateLabel: string;
}

export function ArticleWidgets({ article, siteTopics, introVideoUrl, dateLabel }: ArticleWidgetsProps) {
  const paragraphs = articleParagraphs(article);
  const totalWords = paragraphs.reduce((sum, paragraph) => sum + wordCount(paragraph), 0) || 1;
  const mainTopic = article.topic[0] ?? 'competence';
  const ids = ARTICLE_SECTION_IDS;
  const hasGallery = (article.gallery?.length ?? 0) > 0;
  const contents: { id: string; label: string }[] = [
    { id: ids.takeaways, label: 'Key takeaways' },
    ...(hasGallery ? [{ id: ids.gallery, label: 'Gallery' }] : []),
    { id: ids.video, label: 'Video' },
    { id: ids.glance, label: 'At a glance' },
    { id: ids.competences, label: 'Explore competences' },
    { id: ids.topics, label: 'All topics' },
  ];

  return (
    <div className="khs-widgets-article">
      <div id={ids.takeaways}>
        <Tabs
          title="Key takeaways"
          items={[
            { id: `${ids.takeaways}-summary`, label: 'Summary', content: <p>{article.intro}</p> },
            {
              id: `${ids.takeaways}-points`,
              label: 'Key points',
              content: (
                <ul>
                  {paragraphs.slice(0, KEY_POINTS).map((paragraph, index) => (
                    <li key={index}>{firstSentence(paragraph)}</li>
                  ))}
                </ul>
              ),
            },
            {
              id: `${ids.takeaways}-next`,
              label: 'Next steps',
              content: (
                <p>
                  {firstSentence(paragraphs[paragraphs.length - 1] ?? article.intro)}{' '}
                  <a href={topicSearchHref(mainTopic)}>More about {mainTopic}</a>
                </p>
              ),
            },
          ]}
        />
      </div>
      {hasGallery ? (
        <div id={ids.gallery}>
          <Gallery title="Gallery" pictures={article.gallery ?? []} />
        </div>
      ) : null}
      <div id={ids.video}>
        <Video
          title="KHS Competence in six seconds"
          poster={article.image}
          src={introVideoUrl}
          description="A short animated introduction to the site: search articles, keep a watchlist, answer surveys."
        />
      </div>
      <div id={ids.glance}>
        <ScrollTable
          caption="The article at a glance"
          columns={['Part', 'Key idea', 'Words', 'Share of the article', 'Reading time']}
          rows={paragraphs.map((paragraph, index) => {
            const words = wordCount(paragraph);
            return [
              `Part ${index + 1}`,
              firstSentence(paragraph),
              String(words),
              `${Math.round((words / totalWords) * 100)}%`,
              `${Math.max(1, Math.round((words / totalWords) * article.readingTime * 60))} s`,
            ];
          })}
        />
      </div>
      <div id={ids.competences}>
        <CompetenceSlider title="Explore competences" cards={competenceCards(article, siteTopics)} />
      </div>
      <div id={ids.topics}>
        <HorizontalScroller
          title="All topics"
          items={siteTopics.map(({ name: topic }) => ({
            key: topic,
            content: (
              <a className="khs-widgets-topic-chip" href={topicSearchHref(topic)} aria-current={article.topic.includes(topic) ? 'true' : undefined}>
                {topic}
              </a>
            ),
          }))}
        />
      </div>
      <p className="khs-widgets-article__actions">
        <DialogTrigger dialogId={ids.cite} className="khs-widgets-button khs-widgets-button--secondary">
          Cite this article
        </DialogTrigger>
      </p>
      <Dialog id={ids.cite} title="Cite this article">
        <p className="khs-widgets-citation">
          “{article.title}”. {dateLabel}. <span className="khs-widgets-citation__url">{article.url}</span>
        </p>
        <p>
          <a href={article.url} target="_blank">
            Open the article in a new tab
          </a>
        </p>
      </Dialog>
      <Dialog id={ids.contents} title="In this article" variant="navigation">
        <ul className="khs-widgets-contents-list">
          {contents.map((entry) => (
            <li key={entry.id}>
              <a href={`#${entry.id}`}>{entry.label}</a>
            </li>
          ))}
        </ul>
      </Dialog>
    </div>
  );
}
