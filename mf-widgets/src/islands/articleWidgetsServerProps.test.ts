import { describe, expect, it } from 'vitest';
import { listArticles, SITE_INTRO_VIDEO_URL, TOPICS } from '@khs/content';
import type { IslandContentReader } from 'contracts';
import { render } from './ArticleWidgets.server.js';
import { articleWidgetsServerProps } from './articleWidgetsServerProps.js';

const article = listArticles().find((candidate) => (candidate.gallery?.length ?? 0) > 0) ?? listArticles()[0]!;
/** The site serves every content image under a hashed name, 640×480 (a stand-in for the shell's catalogue). */
const content: IslandContentReader = {
  article: (id) => listArticles().find((candidate) => candidate.id === id),
  image: (url) => (url.startsWith('/') ? { src: url.replace(/(\.\w+)$/, '.0123456789ab$1'), width: 640, height: 480, srcset: `${url} 640w` } : undefined),
};

describe("ArticleWidgets reads its article itself (serverProps): the slot gives only the article's id", () => {
  it("builds the widget props from the page's article, its pictures as the site serves them, the site's topics and date format", () => {
    const props = articleWidgetsServerProps({ articleId: article.id }, { content }) as { article: { image: string; gallery: unknown[]; content: string }; siteTopics: unknown[]; introVideoUrl: string; dateLabel: string };
    expect(props.article.content).toBe(article.content);
    expect(props.article.image).toBe(content.image(article.image)!.src);
    expect(props.article.gallery).toEqual((article.gallery ?? []).map((picture) => ({ ...picture, ...content.image(picture.src) })));
    expect(props.siteTopics).toHaveLength(TOPICS.length);
    expect(props.introVideoUrl).toBe(SITE_INTRO_VIDEO_URL);
    expect(props.dateLabel).toBe(new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(article.date * 1000)));
    expect(props.dateLabel).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
  });

  it('has nothing to show for an article the page cannot read, or without content', () => {
    expect(articleWidgetsServerProps({ articleId: 'no-such-article' }, { content })).toBeNull();
    expect(articleWidgetsServerProps({}, { content })).toBeNull();
    expect(articleWidgetsServerProps({ articleId: article.id }, {})).toBeNull();
  });

  it('its render takes the props the hook read (merged over the slot props)', async () => {
    const own = articleWidgetsServerProps({ articleId: article.id }, { content })!;
    const { html } = await render({ articleId: article.id, ...own }, { config: {} as never, url: article.url, signal: new AbortController().signal });
    expect(html).toContain('In this article');
  });
});
