import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import sharp from 'sharp';
import { listArticles } from '@khs/content';
import type { Article, ContentStore } from '../content/contentStore.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { svgIntrinsicSize } from './imageCatalogue.js';
import { articleModifiedAt, articlePublishedAt, clampDescription, SITE_DESCRIPTION } from './siteMetadata.js';

const BASE = 'https://khs.example';
const base = listArticles()[0]!;
/** Text that must stay text in meta attributes and JSON-LD. */
const hostile: Article = {
  ...base,
  id: 'hostile',
  url: '/articles/hostile',
  title: 'Closing </script><script>alert(1)</script> & "quotes"',
  intro: 'An intro with </script> and \u2028 a separator.',
  topic: ['Leadership'],
};
/** An article edited a week after it was published (its front matter's `updated`). */
const edited: Article = { ...listArticles()[4]!, id: 'edited', url: '/articles/edited', updated: listArticles()[4]!.date + 7 * 86_400 };
const content: ContentStore = {
  listArticles: () => [hostile, edited, ...listArticles()],
  getArticle: (id) => (id === hostile.id ? hostile : id === edited.id ? edited : listArticles().find((article) => article.id === id)),
};

interface Head {
  document: Document;
  meta(key: string): string | undefined;
  metas(key: string): string[];
  canonical: string | undefined;
  robots: string | undefined;
  jsonLd: Array<Record<string, any>>;
}

function documentOf(html: string): Document {
  return (new JSDOM(html) as { window: Window }).window.document;
}

function headOf(html: string): Head {
  const document = documentOf(html);
  const metas = (key: string) =>
    [...document.head.querySelectorAll(`meta[property="${key}"], meta[name="${key}"]`)].map((element) => element.getAttribute('content') ?? '');
  return {
    document,
    metas,
    meta: (key) => metas(key)[0],
    canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? undefined,
    robots: document.head.querySelector('meta[name="robots"]')?.getAttribute('content') ?? undefined,
    jsonLd: [...document.head.querySelectorAll('script[type="application/ld+json"]')].map((script) => JSON.parse(script.textContent ?? '')),
  };
}

const isIsoDate = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value);
const isAbsoluteOn = (value: unknown, origin: string) => typeof value === 'string' && value.startsWith(`${origin}/`);

describe('what search engines and social networks read on the pages', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp({ content, env: { PUBLIC_BASE_URL: BASE, ALLOWED_HOSTS: 'www.khs.example' } }));
  });
  afterAll(() => app.close());

  it('an article has its description, canonical URL, Open Graph and Twitter card with its own image', async () => {
    const article = listArticles()[2]!;
    const response = await app.inject(article.url);
    const head = headOf(response.body);
    expect(head.robots).toBeUndefined();
    expect(head.canonical).toBe(`${BASE}${article.url}`);
    expect(head.meta('description')).toBe(clampDescription(article.intro));
    expect(head.meta('description')!.length).toBeLessThanOrEqual(200);
    // Open Graph's required properties, then the article's own.
    expect(head.meta('og:title')).toBe(article.title);
    expect(head.meta('og:type')).toBe('article');
    expect(head.meta('og:url')).toBe(`${BASE}${article.url}`);
    const image = head.meta('og:image')!;
    const imageStem = article.image.replace(/^.*\//, '').replace(/\.svg$/, '');
    expect(image).toMatch(new RegExp(`^${BASE}/images/${imageStem}\\.[0-9a-f]{12}\\.1200w\\.png$`));
    expect(head.meta('og:image:alt')).toBe(article.imageAlt);
    expect(head.meta('article:published_time')).toBe(articlePublishedAt(article).toISOString());
    expect(head.meta('article:modified_time')).toBe(articleModifiedAt(article).toISOString());
    expect(head.metas('article:tag')).toEqual(article.topic);
    expect(head.meta('twitter:card')).toBe('summary_large_image');
    expect(head.meta('twitter:image')).toBe(image);
    // The card's image is served, as large as the tags say.
    const png = await app.inject(new URL(image).pathname);
    expect(png.statusCode).toBe(200);
    const meta = await sharp(png.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([Number(head.meta('og:image:width')), Number(head.meta('og:image:height'))]);
    // The Atom feed is linked.
    const feed = head.document.head.querySelector('link[rel="alternate"][type="application/atom+xml"]');
    expect(feed?.getAttribute('href')).toBe('/feed.xml');
  });

  it("an edited article's dateModified and article:modified_time are the edit's date, its published time stays", async () => {
    const head = headOf((await app.inject(edited.url)).body);
    const editedAt = new Date((edited.date + 7 * 86_400) * 1000).toISOString();
    expect(head.meta('article:modified_time')).toBe(editedAt);
    expect(head.jsonLd[0]!.dateModified).toBe(editedAt);
    expect(head.meta('article:published_time')).toBe(new Date(edited.date * 1000).toISOString());
    expect(head.jsonLd[0]!.datePublished).toBe(new Date(edited.date * 1000).toISOString());
  });

  it("an article's JSON-LD Article has Google's required and recommended properties, and a BreadcrumbList", async () => {
    const article = listArticles()[3]!;
    const head = headOf((await app.inject(article.url)).body);
    const [data, breadcrumb] = head.jsonLd;
    expect(head.jsonLd).toHaveLength(2);
    expect(data!['@context']).toBe('https://schema.org');
    expect(data!['@type']).toBe('Article');
    expect(data!.headline).toBe(article.headline || article.title);
    expect(data!.headline.length).toBeLessThanOrEqual(110);
    expect(Array.isArray(data!.image) && data!.image.length).toBeGreaterThan(0);
    for (const url of data!.image) {
      expect(isAbsoluteOn(url, BASE)).toBe(true);
      expect((await app.inject(new URL(url).pathname)).statusCode).toBe(200);
    }
    expect(isIsoDate(data!.datePublished)).toBe(true);
    expect(isIsoDate(data!.dateModified)).toBe(true);
    expect(data!.datePublished).toBe(articlePublishedAt(article).toISOString());
    expect(data!.author).toMatchObject({ '@type': 'Organization', name: 'KHS Competence', url: `${BASE}/` });
    expect(data!.publisher).toMatchObject({ '@type': 'Organization', name: 'KHS Competence' });
    expect(isAbsoluteOn(data!.publisher.logo.url, BASE)).toBe(true);
    expect(data!.mainEntityOfPage).toBe(`${BASE}${article.url}`);
    expect(data!.keywords).toBe(article.topic.join(', '));
    expect(data!.about).toEqual(article.topic.map((name) => ({ '@type': 'Thing', name })));
    // BreadcrumbList: itemListElement of ListItems with position, name and item (but the last's item may be left out).
    expect(breadcrumb!['@type']).toBe('BreadcrumbList');
    const items = breadcrumb!.itemListElement as Array<Record<string, any>>;
    expect(items.map((item) => [item['@type'], item.position, item.name, item.item])).toEqual([
      ['ListItem', 1, 'KHS Competence', `${BASE}/`],
      ['ListItem', 2, article.title, `${BASE}${article.url}`],
    ]);
  });

  it('text of the content stays text in the tags and the JSON-LD', async () => {
    const response = await app.inject(hostile.url);
    expect(response.body).not.toContain('<script>alert(1)</script>');
    const head = headOf(response.body);
    expect(head.meta('og:title')).toBe(hostile.title);
    expect(head.jsonLd[0]!.name).toBe(hostile.title);
    expect(head.jsonLd[0]!.description).toBe(hostile.intro.replace(/\s+/g, ' ').trim());
    expect(head.document.querySelectorAll('script:not([type]), script[type="text/javascript"]')).toHaveLength(1); // the runtime's only
  });

  it('home is indexed with a canonical URL, a site card and WebSite with the site search as SearchAction', async () => {
    const head = headOf((await app.inject('/')).body);
    expect(head.robots).toBeUndefined();
    expect(head.canonical).toBe(`${BASE}/`);
    expect(head.meta('description')).toBe(SITE_DESCRIPTION);
    expect(head.meta('og:type')).toBe('website');
    expect(head.meta('og:url')).toBe(`${BASE}/`);
    expect(head.meta('og:image')).toMatch(new RegExp(`^${BASE}/images/default\\.[0-9a-f]{12}\\.1200w\\.png$`));
    const [site] = head.jsonLd;
    expect(site).toMatchObject({ '@type': 'WebSite', url: `${BASE}/`, name: 'KHS Competence' });
    expect(site!.potentialAction).toEqual({
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${BASE}/search?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    });
  });

  it('the search page is indexed without a query and noindex with one, its canonical without the query', async () => {
    const empty = headOf((await app.inject('/search')).body);
    expect(empty.robots).toBeUndefined();
    expect(empty.canonical).toBe(`${BASE}/search`);
    const results = headOf((await app.inject('/search?q=leadership')).body);
    expect(results.robots).toBe('noindex');
    expect(results.canonical).toBe(`${BASE}/search`);
  });

  it('the watchlist and the 404 page are noindex, without canonical URL or card', async () => {
    for (const [url, status] of [['/watchlist', 200], ['/no/such/page', 404], ['/articles/hidden-draft', 404]] as const) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(status);
      const head = headOf(response.body);
      expect(head.robots).toBe('noindex');
      expect(head.canonical).toBeUndefined();
      expect(head.meta('og:title')).toBeUndefined();
      expect(head.meta('description')).toBe(SITE_DESCRIPTION);
    }
  });

  it('the link origin follows PUBLIC_BASE_URL, or an allowed host, never a forged one', async () => {
    const article = listArticles()[0]!;
    const forged = headOf((await app.inject({ url: article.url, headers: { host: 'evil.example' } })).body);
    expect(forged.canonical).toBe(`${BASE}${article.url}`);
    const allowed = headOf((await app.inject({ url: article.url, headers: { host: 'www.khs.example' } })).body);
    expect(allowed.canonical).toBe(`http://www.khs.example${article.url}`);
    expect(allowed.meta('og:image')).toMatch(/^http:\/\/www\.khs\.example\/images\//);
  });

  it("the article's image is content-hashed and sized from its SVG, as are the teasers'", async () => {
    const article = listArticles()[0]!;
    const html = (await app.inject(article.url)).body;
    const document = documentOf(html);
    const image = document.querySelector('.article__figure img')!;
    expect(image.getAttribute('src')).toMatch(/^\/images\/[a-z0-9-]+\.[0-9a-f]{12}\.svg$/);
    const svg = (await app.inject(image.getAttribute('src')!)).body;
    expect(svgIntrinsicSize(svg)).toEqual({ width: Number(image.getAttribute('width')), height: Number(image.getAttribute('height')) });
    const home = documentOf((await app.inject('/')).body);
    const teasers = [...home.querySelectorAll('img.teaser__image')];
    expect(teasers.length).toBeGreaterThan(0);
    for (const teaser of teasers) {
      expect(teaser.getAttribute('src')).toMatch(/^\/images\/[a-z0-9-]+\.[0-9a-f]{12}\.svg$/);
      expect(Number(teaser.getAttribute('width'))).toBeGreaterThan(0);
    }
  });
});

describe('svgIntrinsicSize', () => {
  it('reads width and height, else the viewBox, else nothing', () => {
    expect(svgIntrinsicSize('<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540" viewBox="0 0 10 10">')).toEqual({ width: 960, height: 540 });
    expect(svgIntrinsicSize('<?xml version="1.0"?><svg viewBox="0 0 1280 720" xmlns="http://www.w3.org/2000/svg"></svg>')).toEqual({ width: 1280, height: 720 });
    expect(svgIntrinsicSize('<svg width="100%" height="100%" viewBox="0,0,32.4,16"></svg>')).toEqual({ width: 32, height: 16 });
    expect(svgIntrinsicSize('<svg width="50px" height="20px"></svg>')).toEqual({ width: 50, height: 20 });
    expect(svgIntrinsicSize('<svg width="100%"></svg>')).toBeUndefined();
    expect(svgIntrinsicSize('<svg viewBox="0 0 0 10"></svg>')).toBeUndefined();
    expect(svgIntrinsicSize('<html></html>')).toBeUndefined();
  });
});
