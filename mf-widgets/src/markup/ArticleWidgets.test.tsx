// @vitest-environment node
import { describe, expect, it } from 'vitest';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { renderToStaticMarkup } from 'react-dom/server';
import { CONTENT_IMAGES_BASE_URL, listArticles, SITE_INTRO_VIDEO_URL, TOPICS, topicSlug, type Article } from '@khs/content';
import { ARTICLE_SECTION_IDS, ArticleWidgets, type ArticleWidgetsProps } from './ArticleWidgets.js';
import { competenceCards, firstSentence } from './articleWidgetContent.js';

const article = listArticles().find((candidate) => (candidate.gallery?.length ?? 0) > 0)!;
const withoutGallery = listArticles().find((candidate) => !candidate.gallery?.length)!;
const siteTopics = TOPICS.map((name) => ({ name, image: `${CONTENT_IMAGES_BASE_URL}/topic-${topicSlug(name)}.svg` }));

/** The props the shell's article renderer hands the island (the seeded content as test data). */
function propsOf(source: Article): ArticleWidgetsProps {
  return { article: source, siteTopics, introVideoUrl: SITE_INTRO_VIDEO_URL, dateLabel: '12 March 2026' };
}

/** Server markup parsed as a browser would, before any script runs (jsdom as a parser only:
 * `@khs/content` needs Node's own URL, so the test runs in the node environment). */
function parse(html: string): HTMLElement {
  const host = (new JSDOM('') as { window: Window }).window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

describe('widget markup of an article page', () => {
  const page = parse(renderToStaticMarkup(<ArticleWidgets {...propsOf(article)} />));

  it('renders every widget root of the mf-widgets markup contract', () => {
    for (const widget of ['tabs', 'gallery', 'video', 'scroll-table', 'competence-slider', 'h-scroll', 'dialog']) {
      expect(page.querySelector(`[data-widget="${widget}"]`), widget).not.toBeNull();
    }
    expect(page.querySelectorAll('[data-dialog-open]')).toHaveLength(1);
    expect(page.querySelector(`#${ARTICLE_SECTION_IDS.contents}[data-dialog-variant="navigation"]`)).not.toBeNull();
  });

  it('reads without script: tab panels with headings, figures with captions, dialog content in place', () => {
    const labels = [...page.querySelectorAll('[data-tabs-panel] > [data-tabs-label]')].map((heading) => heading.textContent);
    expect(labels).toEqual(['Summary', 'Key points', 'Next steps']);
    const figures = [...page.querySelectorAll('[data-widget="gallery"] figure')];
    expect(figures).toHaveLength(article.gallery!.length);
    figures.forEach((figure, index) => {
      expect(figure.querySelector('figcaption')!.textContent).toBe(article.gallery![index]!.caption);
      expect(figure.querySelector('a[data-lightbox-item]')!.getAttribute('href')).toBe(article.gallery![index]!.src);
      expect(figure.querySelector('img')!.getAttribute('alt')).toBe(article.gallery![index]!.alt);
    });
    const cite = page.querySelector(`#${ARTICLE_SECTION_IDS.cite}`)!;
    expect(cite.hasAttribute('hidden')).toBe(false);
    expect(cite.textContent).toContain(article.title);
    expect(cite.textContent).toContain('12 March 2026');
    // Controls that only work with script stay hidden until the remote shows them.
    for (const controls of page.querySelectorAll('[data-slider-controls], [data-scroll-controls], [data-dialog-close], [data-video-play]')) {
      expect(controls.hasAttribute('hidden')).toBe(true);
    }
    expect(page.querySelector('video')!.hasAttribute('controls')).toBe(true);
  });

  it('derives its content from the article', () => {
    const rows = page.querySelectorAll('[data-widget="scroll-table"] tbody tr');
    const paragraphs = article.content.split(/\n{2,}/).filter((p) => p.trim());
    expect(rows).toHaveLength(paragraphs.length);
    expect(rows[0]!.querySelector('td')!.textContent).toBe(firstSentence(paragraphs[0]!));
    const cards = [...page.querySelectorAll('[data-widget="competence-slider"] [data-slider-slide] h3')].map((title) => title.textContent);
    expect(cards.slice(0, article.topic.length)).toEqual(article.topic);
    expect(page.querySelectorAll('[data-widget="h-scroll"] li')).toHaveLength(TOPICS.length);
  });

  it("writes each gallery picture with the hashed URL, size and srcset the shell passes, the gallery's default size otherwise", () => {
    const gallery = [
      { src: '/images/board.0123456789ab.jpg', alt: 'A board', caption: 'Board', width: 800, height: 600, srcset: '/images/board.0123456789ab.480w.webp 480w, /images/board.0123456789ab.jpg 800w' },
      { src: '/content-images/plain.svg', alt: 'Plain', caption: 'Plain' },
    ];
    const markup = parse(renderToStaticMarkup(<ArticleWidgets {...propsOf({ ...article, gallery })} />));
    const images = [...markup.querySelectorAll('[data-widget="gallery"] img')];
    expect(images.map((img) => [img.getAttribute('src'), img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('srcset')])).toEqual([
      ['/images/board.0123456789ab.jpg', '800', '600', gallery[0]!.srcset],
      ['/content-images/plain.svg', '1280', '720', null],
    ]);
    expect(images[0]!.getAttribute('sizes')).toBe('(min-width: 50rem) 45rem, calc(100vw - 5rem)');
  });

  it('leaves the gallery (and its navigation entry) out when the article has none', () => {
    const plain = parse(renderToStaticMarkup(<ArticleWidgets {...propsOf(withoutGallery)} />));
    expect(plain.querySelector('[data-widget="gallery"]')).toBeNull();
    expect(plain.querySelector(`a[href="#${ARTICLE_SECTION_IDS.gallery}"]`)).toBeNull();
  });

  it('competence cards: own topics first, no duplicates', () => {
    const titles = competenceCards(article, siteTopics).map((card) => card.title);
    expect(titles.slice(0, article.topic.length)).toEqual(article.topic);
    expect(new Set(titles).size).toBe(titles.length);
  });
});
