import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PAGE_CONFIG_ELEMENT_ID, type PageConfig } from 'contracts';
import { listArticles } from '@khs/content';
import type { Article, ContentStore } from '../content/contentStore.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { serializeJsonForHtml } from '../federation/serializeJsonForHtml.js';

const base = listArticles()[0]!;
const hostile: Article = {
  ...base,
  id: 'hostile',
  url: '/articles/hostile',
  title: 'Closing tags </script><script>alert(1)</script> & friends',
  headline: '<img src=x onerror=alert(1)>',
  intro: 'Intro with \u2028 separators',
};
const content: ContentStore = {
  listArticles: () => [hostile, ...listArticles()],
  getArticle: (id) => (id === hostile.id ? hostile : listArticles().find((a) => a.id === id)),
};

function pageConfigOf(html: string): PageConfig {
  const match = new RegExp(`<script type="application/json" id="${PAGE_CONFIG_ELEMENT_ID}">(.*?)</script>`, 's').exec(html);
  if (!match) throw new Error('no page config in the page');
  return JSON.parse(match[1]!) as PageConfig;
}

describe('server-rendered pages', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp({ content }));
  });
  afterAll(() => app.close());

  it('home lists the latest articles as teasers with watchlist islands', async () => {
    const response = await app.inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    const teasers = response.body.match(/<article class="teaser">/g) ?? [];
    expect(teasers.length).toBe(12);
    expect(response.body).toContain(`href="${listArticles()[0]!.url}"`);
    expect(response.body).toContain('data-island="mf-watchlist/WatchlistButton"');
  });

  it('an article page carries the full article and its islands', async () => {
    const article = listArticles().find((a) => a.surveyHandle) ?? listArticles()[1]!;
    const response = await app.inject(article.url);
    expect(response.statusCode).toBe(200);
    const firstParagraph = article.content.split(/\n{2,}/)[0]!;
    const html = response.body;
    expect(html).toContain(escapeText(firstParagraph.slice(0, 60)));
    // The article's image by its content-hashed URL (seo/imageCatalogue.ts), sized.
    const imageStem = article.image.replace(/^.*\//, '').replace(/\.svg$/, '');
    expect(html).toMatch(new RegExp(`<img src="/images/${imageStem}\\.[0-9a-f]{12}\\.svg" alt="[^"]*" width="1280" height="720"/>`));
    expect(html).toContain(`${article.readingTime} min read`);
    for (const topic of article.topic) expect(html).toContain(escapeText(topic));
    expect(html).toContain('data-island="mf-watchlist/WatchlistButton"');
    expect(html).toContain('data-island="mf-widgets/PageWidgets"');
    // The article's after-body islands come from their slices' manifests, with the article's id only (each reads the rest itself).
    const articleId = escapeText(JSON.stringify({ articleId: article.id })).replace(/"/g, '&quot;');
    expect(html).toContain(`<div class="island article__widgets" data-island="mf-widgets/ArticleWidgets" data-props="${articleId}" data-island-hydrate="visible"></div>`);
    expect(html).toContain(`<div class="island article__survey" data-island="mf-survey/Survey" data-props="${articleId}" data-island-hydrate="visible"></div>`);
    // The header's watchlist link from its manifest, with its placeholder link (no server islands here).
    expect(html).toContain('<div class="island site-header__action site-header__watchlist" data-island="mf-watchlist/WatchlistLink" data-props="{}"><a href="/watchlist">');
    // The search's conversion listener: on every page, waiting only for an idle moment (the header search waits for the reader).
    expect(html).toMatch(/<div class="island" data-island="mf-search\/SearchConversions" data-props="\{\}" data-island-hydrate="idle">/);
  });

  it('escapes hostile text everywhere, including the embedded page config', async () => {
    const response = await app.inject('/articles/hostile');
    const html = response.body;
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x');
    // The page config, the runtime, and the article's two JSON-LD data blocks: nothing else.
    expect(html.match(/<script/g)?.length).toBe(4);
    expect(html.match(/<script type="application\/ld\+json">/g)?.length).toBe(2);
    const config = pageConfigOf(html);
    expect(config.calls.watchlist).toBe('/api/watchlist');
    expect(config.search.server.apiKey).toBe('khs-search-dev-key');
    expect(html).not.toContain('khs-admin-dev-key');
  });

  it('sends security headers with a CSP allowing the remotes and the search server', async () => {
    const response = await app.inject('/');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' http://127.0.0.1:4310 http://127.0.0.1:4311");
    expect(csp).toMatch(/connect-src [^;]*http:\/\/127\.0\.0\.1:8108/);
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown pages with a 404 page and unknown API calls with JSON', async () => {
    const page = await app.inject('/articles/does-not-exist');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Page not found');
    const api = await app.inject('/api/nothing');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not found', code: 'not-found' });
  });

  it('serves content images locally', async () => {
    const response = await app.inject(listArticles()[0]!.image);
    expect(response.statusCode).toBe(200);
  });

  it('keeps the search query from the address in the fallback form, cut to 512', async () => {
    const response = await app.inject(`/search?q=${'a'.repeat(600)}`);
    expect(response.body).toContain(`value="${'a'.repeat(512)}"`);
    expect(response.body).not.toContain('a'.repeat(513));
  });
});

describe('serializeJsonForHtml', () => {
  it('produces JSON that cannot close its script element', () => {
    const value = { text: '</script><!-- & \u2028' };
    const serialized = serializeJsonForHtml(value);
    expect(serialized).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(serialized)).toEqual(value);
  });
});

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
