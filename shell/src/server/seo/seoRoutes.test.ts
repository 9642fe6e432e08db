import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { listArticles } from '@khs/content';
import type { Article, ContentStore } from '../content/contentStore.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { FAVICON_ICO_SIZES } from './imageRendering.js';
import Fastify from 'fastify';
import { CONTENT_IMAGES_BASE_URL, contentImagesDir } from '@khs/content';
import { FEED_ARTICLE_COUNT, articleModifiedAt, clampDescription } from './siteMetadata.js';
import { createImageCatalogue } from './imageCatalogue.js';
import { seoRoutes } from './seoRoutes.js';

const BASE = 'https://khs.example';
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['url', 'entry', 'link', 'category', 'sitemap'].includes(name) });

/** An unpublished article the content store does not list (as a draft would be): it must appear nowhere. */
const hidden: Article = { ...listArticles()[0]!, id: 'hidden-draft', url: '/articles/hidden-draft', title: 'Hidden draft & <unfinished>' };
/** An article whose text needs escaping in XML, edited three days after it was published (`updated`). */
const awkward: Article = { ...listArticles()[1]!, id: 'awkward', url: '/articles/awkward', title: 'Tom & Jerry <negotiate> "prices"', intro: 'Less < more & more > less', updated: listArticles()[1]!.date + 3 * 86_400 };
/** The edit's date as sitemaps and feeds write it. */
const awkwardEdited = new Date((awkward.date + 3 * 86_400) * 1000).toISOString();
const listed = () => [awkward, ...listArticles()];
const content: ContentStore = {
  listArticles: listed,
  getArticle: (id) => (id === hidden.id ? hidden : listed().find((article) => article.id === id)),
};

function parseXml(body: string): Record<string, any> {
  expect(XMLValidator.validate(body)).toBe(true);
  return parser.parse(body);
}

describe('search-engine and feed routes', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp({ content, env: { PUBLIC_BASE_URL: `${BASE}/` } }));
  });
  afterAll(() => app.close());

  it('sitemap.xml is a sitemaps.org urlset of home and every listed article with lastmod, on the public base URL', async () => {
    const response = await app.inject('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const { urlset } = parseXml(response.body);
    expect(urlset['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const urls = urlset.url as Array<{ loc: string; lastmod?: string }>;
    expect(urls.map((url) => url.loc)).toEqual([`${BASE}/`, ...listed().map((article) => `${BASE}${article.url}`)]);
    for (const url of urls) {
      expect(Object.keys(url).sort()).toEqual(['lastmod', 'loc']); // only sitemaps.org elements
      expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/); // W3C datetime
    }
    const newest = Math.max(...listed().map((article) => articleModifiedAt(article).getTime()));
    expect(urls[0]!.lastmod).toBe(new Date(newest).toISOString());
    // An edited article's lastmod is the edit's date; one never edited keeps its publication date.
    expect(urls.find((url) => url.loc === `${BASE}${awkward.url}`)!.lastmod).toBe(awkwardEdited);
    const unedited = listArticles().find((article) => article.updated === undefined)!;
    expect(urls.find((url) => url.loc === `${BASE}${unedited.url}`)!.lastmod).toBe(new Date(unedited.date * 1000).toISOString());
    expect(response.body).not.toContain(hidden.id);
    // One file holds them all: no numbered parts.
    expect((await app.inject('/sitemap-1.xml')).statusCode).toBe(404);
  });

  it('robots.txt allows the pages, keeps crawlers off the calls and names the sitemap', async () => {
    const response = await app.inject('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /api/');
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(lines.filter((line) => line.startsWith('Disallow:'))).toEqual(['Disallow: /api/', 'Disallow: /actions/']);
  });

  it('feed.xml is an Atom feed (RFC 4287) of the latest articles', async () => {
    const response = await app.inject('/feed.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const { feed } = parseXml(response.body);
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    // atom:feed MUST contain exactly one id, title and updated, and an author unless every entry has one.
    expect(feed.id).toBe(`${BASE}/`);
    expect(feed.title).toBe('KHS Competence: latest articles');
    expect(Date.parse(feed.updated)).not.toBeNaN();
    expect(feed.author.name).toBe('KHS Competence');
    expect(feed.link.find((link: any) => link['@rel'] === 'self')['@href']).toBe(`${BASE}/feed.xml`);
    const entries = feed.entry as any[];
    expect(entries).toHaveLength(FEED_ARTICLE_COUNT);
    const expected = listed().slice(0, FEED_ARTICLE_COUNT);
    entries.forEach((entry, index) => {
      const article = expected[index]!;
      // atom:entry MUST contain exactly one id, title and updated; a link rel=alternate without content.
      expect(entry.id).toBe(`${BASE}${article.url}`);
      expect(entry.title).toBe(article.title);
      expect(entry.updated).toBe(articleModifiedAt(article).toISOString());
      expect(entry.link[0]['@rel']).toBe('alternate');
      expect(entry.link[0]['@href']).toBe(`${BASE}${article.url}`);
      expect(entry.summary['#text']).toBe(clampDescription(article.intro, 500));
      expect(entry.category.map((category: any) => category['@term'])).toEqual(article.topic);
    });
    expect(entries[0].summary['#text']).toBe(awkward.intro);
    expect(entries[0].updated).toBe(awkwardEdited);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(feed.updated).toBe(new Date(Math.max(...expected.map((article) => articleModifiedAt(article).getTime()))).toISOString());
  });

  it('favicon.ico is a real ICO with 16, 32 and 48 px PNG images drawn from the favicon SVG', async () => {
    const response = await app.inject('/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/x-icon');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    const ico = response.rawPayload;
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(FAVICON_ICO_SIZES.length);
    for (const [index, size] of FAVICON_ICO_SIZES.entries()) {
      const entry = 6 + index * 16;
      expect(ico.readUInt8(entry)).toBe(size);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      const png = ico.subarray(offset, offset + length);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size]);
      // The favicon's blue (#0b5cad) at the centre-left of the bookmark shape's background.
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const pixel = (Math.floor(size / 2) * info.width + Math.floor(size / 8)) * info.channels;
      expect([data[pixel], data[pixel + 1], data[pixel + 2]]).toEqual([0x0b, 0x5c, 0xad]);
    }
  });

  it('serves content-hashed images immutable, and their PNG renditions for social cards', async () => {
    const page = await app.inject(listArticles()[0]!.url);
    const src = /<img src="(\/images\/[^"]+\.svg)" alt="[^"]*" width="(\d+)" height="(\d+)"/.exec(page.body);
    expect(src).not.toBeNull();
    const svg = await app.inject(src![1]!);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(svg.body).toContain(`viewBox="0 0 ${src![2]} ${src![3]}"`);
    const png = await app.inject(src![1]!.replace(/\.svg$/, '.1200w.png'));
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(png.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, Math.round((1200 * Number(src![3])) / Number(src![2]))]);
    // A name with another hash is not an image of the store.
    expect((await app.inject(src![1]!.replace(/\.[0-9a-f]{12}\./, '.000000000000.'))).statusCode).toBe(404);
    expect((await app.inject('/images/..%2Fpackage.json')).statusCode).toBe(404);
  });
});

describe('sitemap past its address limit', () => {
  it('becomes a sitemap index of numbered sitemaps that together list every article once', async () => {
    const one = listArticles()[0]!;
    const many: Article[] = Array.from({ length: 7 }, (_, index) => ({ ...one, id: `a${index}`, url: `/articles/a${index}` }));
    const app = Fastify();
    await app.register(seoRoutes, {
      content: { listArticles: () => many, getArticle: () => undefined },
      images: await createImageCatalogue({ dir: contentImagesDir, contentBaseUrl: CONTENT_IMAGES_BASE_URL }),
      linkOrigin: () => BASE,
      siteName: 'KHS Competence',
      faviconSvgPath: 'unused.svg',
      sitemapUrlLimit: 3, // 8 addresses with home: 3 files
    });
    try {
      const index = parseXml((await app.inject('/sitemap.xml')).body);
      expect(index.sitemapindex['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
      const parts = (index.sitemapindex.sitemap as Array<{ loc: string }>).map((sitemap) => sitemap.loc);
      expect(parts).toEqual([1, 2, 3].map((part) => `${BASE}/sitemap-${part}.xml`));
      const locs: string[] = [];
      for (const part of parts) locs.push(...(parseXml((await app.inject(new URL(part).pathname)).body).urlset.url as Array<{ loc: string }>).map((url) => url.loc));
      expect(locs).toEqual([`${BASE}/`, ...many.map((article) => `${BASE}${article.url}`)]);
      for (const missing of ['/sitemap-4.xml', '/sitemap-0.xml', '/sitemap-x.xml']) expect((await app.inject(missing)).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
