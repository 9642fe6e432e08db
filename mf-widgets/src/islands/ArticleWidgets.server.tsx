import { renderToString } from 'react-dom/server';
import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { ArticleWidgets, type ArticleWidgetsProps } from '../markup/ArticleWidgets.js';
import { articleWidgetsServerProps } from './articleWidgetsServerProps.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The markup depends on the props only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

function isArticleWidgetsProps(value: unknown): value is ArticleWidgetsProps {
  const props = value as ArticleWidgetsProps | null;
  return (
    typeof props === 'object' &&
    props !== null &&
    typeof props.article?.content === 'string' &&
    typeof props.article.title === 'string' &&
    Array.isArray(props.article.topic) &&
    Array.isArray(props.siteTopics) &&
    typeof props.introVideoUrl === 'string' &&
    typeof props.dateLabel === 'string'
  );
}

/** What the markup is built from: the slice reads the page's article itself (its slot gives the article's id). */
export const serverProps = articleWidgetsServerProps;

/**
 * The widget markup of an article (tabs, gallery, video, at-a-glance table, competence slider,
 * topic row, citation and contents dialogs), which this remote's PageWidgets island enhances in
 * the browser. Server only: the browser mount of this island does nothing.
 */
export const render: IslandRender = async (props) => {
  if (!isArticleWidgetsProps(props)) {
    throw new TypeError('ArticleWidgets needs { article, siteTopics, introVideoUrl, dateLabel } props');
  }
  return { html: renderToString(<ArticleWidgets {...props} />) };
};
