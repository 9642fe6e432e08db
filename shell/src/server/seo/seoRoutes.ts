import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ContentStore } from '../content/contentStore.js';
import type { LinkOriginResolver } from '../security/linkOrigin.js';
import { faviconIcoFromSvg, renderRendition } from './imageRendering.js';
import { HASHED_IMAGES_PREFIX, type ImageCatalogue } from './imageCatalogue.js';
import {
  articleModifiedAt,
  articlePublishedAt,
  clampDescription,
  escapeXml,
  FEED_ARTICLE_COUNT,
  FEED_PATH,
  SITE_DESCRIPTION,
  SITEMAP_PATH,
  SITEMAP_URL_LIMIT,
} from './siteMetadata.js';

/** `Cache-Control` of content-hashed images: a changed image gets another URL. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** `Cache-Control` of the sitemap, robots.txt and the feed: fresh within minutes of a publication. */
export const LISTING_CACHE_CONTROL = 'public, max-age=300';
/** `Cache-Control` of `/favicon.ico` (a fixed URL browsers ask for on their own). */
export const FAVICON_CACHE_CONTROL = 'public, max-age=86400';

export interface SeoRouteOptions {
  /** Its `listArticles()` decides what is public: the sitemap and feed list exactly those. */
  content: ContentStore;
  images: ImageCatalogue;
  linkOrigin: LinkOriginResolver;
  siteName: string;
  /** Path of the site's favicon SVG, from which `/favicon.ico` is rendered. */
  faviconSvgPath: string;
  /** Addresses per sitemap file. Default {@link SITEMAP_URL_LIMIT}. */
  sitemapUrlLimit?: number;
}

/** Memoises an async computation per key (the set of keys is bounded by the image catalogue). */
function memoise<T>(compute: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const done = new Map<string, Promise<T>>();
  return (key) => {
    let pending = done.get(key);
    if (!pending) {
      pending = compute(key);
      done.set(key, pending);
      pending.catch(() => done.delete(key)); // a failure is tried again on the next request
    }
    return pending;
  };
}

/** The sitemaps.org `urlset` of some addresses. */
function urlset(entries: ReadonlyArray<{ loc: string; lastmod?: Date }>): string {
  const urls = entries.map(
    ({ loc, lastmod }) => `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * Search-engine and feed routes: `/sitemap.xml` (an index of `/sitemap-<n>.xml` past
 `sitemapUrlLimit` addresses), `/robots.txt`, the Atom feed ({@link FEED_PATH}),
 * `/favicon.ico`, and the content-hashed images under {@link HASHED_IMAGES_PREFIX} (with their
 * renditions, rendered on their first request and kept: their number is bounded by the catalogue).
 */
export async function seoRoutes(app: FastifyInstance, options: SeoRouteOptions): Promise<void> {
  const { content, linkOrigin, siteName } = options;
  imageRoutes(app, options);
  sitemapRoutes(app, options);
  app.get(FEED_PATH, async (request, reply) => {
    const body = atomFeed(content.listArticles().slice(0, FEED_ARTICLE_COUNT), linkOrigin(request), siteName);
    return reply.type('application/atom+xml; charset=utf-8').header('cache-control', LISTING_CACHE_CONTROL).send(body);
  });
}

/** The content-hashed images and their renditions (rendered on first request, then kept), and `/favicon.ico` from the SVG. */
function imageRoutes(app: FastifyInstance, { images, faviconSvgPath }: SeoRouteOptions): void {
  const render = memoise(async (hashedName) => {
    const file = images.fileOf(hashedName)!;
    return renderRendition(await readFile(file.file), file.width, file.height, file.type === 'image/png' ? 'png' : 'webp');
  });
  app.get<{ Params: { name: string } }>(`${HASHED_IMAGES_PREFIX}:name`, async (request, reply) => {
    const file = images.fileOf(request.params.name);
    if (!file) return reply.callNotFound();
    const body = file.kind === 'rendition' ? await render(request.params.name) : await readFile(file.file);
    return reply.type(file.type).header('cache-control', IMMUTABLE_CACHE_CONTROL).send(body);
  });

  const favicon = memoise(async () => faviconIcoFromSvg(await readFile(faviconSvgPath)));
  app.get('/favicon.ico', async (_request, reply) =>
    reply.type('image/x-icon').header('cache-control', FAVICON_CACHE_CONTROL).send(await favicon('favicon')),
  );
}

/** `/robots.txt` (naming the sitemap), `/sitemap.xml` and, past the limit, its numbered parts. */
function sitemapRoutes(app: FastifyInstance, { content, linkOrigin, sitemapUrlLimit = SITEMAP_URL_LIMIT }: SeoRouteOptions): void {
  app.get('/robots.txt', async (request, reply) => {
    const origin = linkOrigin(request);
    // Nothing is disallowed but the calls: pages that must stay out of results say `noindex`,
    // which a crawler can only read on a page it may fetch.
    const body = ['User-agent: *', 'Disallow: /api/', 'Disallow: /actions/', '', `Sitemap: ${origin}${SITEMAP_PATH}`, ''].join('\n');
    return reply.type('text/plain; charset=utf-8').header('cache-control', LISTING_CACHE_CONTROL).send(body);
  });

  const xml = 'application/xml; charset=utf-8';

  app.get(SITEMAP_PATH, async (request, reply) => {
    const origin = linkOrigin(request);
    const entries = sitemapEntries(content, origin);
    reply.type(xml).header('cache-control', LISTING_CACHE_CONTROL);
    if (entries.length <= sitemapUrlLimit) return urlset(entries);
    const parts = Math.ceil(entries.length / sitemapUrlLimit);
    const sitemaps = Array.from({ length: parts }, (_, index) => `  <sitemap><loc>${escapeXml(`${origin}/sitemap-${index + 1}.xml`)}</loc></sitemap>`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join('\n')}\n</sitemapindex>\n`;
  });

  app.get<{ Params: { part: string } }>('/sitemap-:part.xml', async (request, reply) => {
    const part = /^[1-9]\d{0,5}$/.test(request.params.part) ? Number(request.params.part) : 0;
    const entries = sitemapEntries(content, linkOrigin(request));
    const slice = entries.slice((part - 1) * sitemapUrlLimit, part * sitemapUrlLimit);
    // One file holds them all: the numbered parts exist only past the limit.
    if (part === 0 || entries.length <= sitemapUrlLimit || slice.length === 0) return reply.callNotFound();
    return reply.type(xml).header('cache-control', LISTING_CACHE_CONTROL).send(urlset(slice));
  });
}

/** Every address of the sitemap: home (changed with its newest article), then each public article. */
function sitemapEntries(content: ContentStore, origin: string) {
  const articles = content.listArticles();
  const newest = articles.reduce<Date | undefined>((latest, article) => {
    const modified = articleModifiedAt(article);
    return !latest || modified > latest ? modified : latest;
  }, undefined);
  return [
    { loc: `${origin}/`, ...(newest ? { lastmod: newest } : {}) },
    ...articles.map((article) => ({ loc: `${origin}${article.url}`, lastmod: articleModifiedAt(article) })),
  ];
}

/** The Atom feed of `articles` (the newest first), its links on `origin`. */
function atomFeed(articles: ReturnType<ContentStore['listArticles']>, origin: string, siteName: string): string {
  const updated = articles.reduce((latest, article) => Math.max(latest, articleModifiedAt(article).getTime()), 0);
  const entries = articles.map((article) => {
    const url = `${origin}${article.url}`;
    const categories = article.topic.map((topic) => `    <category term="${escapeXml(topic)}"/>`).join('\n');
    return [
      '  <entry>',
      `    <id>${escapeXml(url)}</id>`,
      `    <title>${escapeXml(article.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      `    <published>${articlePublishedAt(article).toISOString()}</published>`,
      `    <updated>${articleModifiedAt(article).toISOString()}</updated>`,
      `    <summary type="text">${escapeXml(clampDescription(article.intro, 500))}</summary>`,
      categories,
      '  </entry>',
    ]
      .filter(Boolean)
      .join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${escapeXml(`${origin}/`)}</id>`,
    `  <title>${escapeXml(`${siteName}: latest articles`)}</title>`,
    `  <subtitle>${escapeXml(SITE_DESCRIPTION)}</subtitle>`,
    // An empty store still has a valid feed: its `updated` is the epoch.
    `  <updated>${new Date(updated).toISOString()}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${origin}${FEED_PATH}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${origin}/`)}"/>`,
    `  <author><name>${escapeXml(siteName)}</name><uri>${escapeXml(`${origin}/`)}</uri></author>`,
    `  <icon>${escapeXml(`${origin}/favicon.ico`)}</icon>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
