import { listArticles } from '@khs/content';
import { expect, test } from '../harness/fixtures.js';

const article = listArticles()[0]!;

test.describe('what search engines and social networks read', () => {
  test('a real article page carries its card, canonical URL and JSON-LD, and its image is hashed, sized and immutable', async ({ page, stack, problems }) => {
    const imageResponses: Array<{ url: string; cacheControl: string | undefined }> = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/images/')) imageResponses.push({ url: response.url(), cacheControl: response.headers()['cache-control'] });
    });
    await page.goto(new URL(article.url, stack.url).href);
    const base = stack.baseUrl; // no PUBLIC_BASE_URL: the listening address is the link origin
    const meta = (key: string) => page.locator(`head meta[property="${key}"], head meta[name="${key}"]`).getAttribute('content');

    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', `${base}${article.url}`);
    expect(await page.locator('head meta[name="robots"]').count()).toBe(0);
    expect(await meta('og:title')).toBe(article.title);
    expect(await meta('og:type')).toBe('article');
    expect(await meta('og:url')).toBe(`${base}${article.url}`);
    expect(await meta('twitter:card')).toBe('summary_large_image');
    const ogImage = (await meta('og:image'))!;
    expect(ogImage.startsWith(`${base}/images/`)).toBe(true);
    const card = await page.request.get(ogImage);
    expect(card.status()).toBe(200);
    expect(card.headers()['content-type']).toBe('image/png');
    // PNG header: width and height at bytes 16-23, as the card's tags say.
    const png = await card.body();
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([Number(await meta('og:image:width')), Number(await meta('og:image:height'))]);

    const jsonLd = await page.locator('head script[type="application/ld+json"]').evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? '')));
    expect(jsonLd.map((data) => data['@type'])).toEqual(['Article', 'BreadcrumbList']);
    expect(jsonLd[0]).toMatchObject({
      headline: article.headline || article.title,
      datePublished: new Date(article.date * 1000).toISOString(),
      author: { '@type': 'Organization' },
      publisher: { '@type': 'Organization' },
    });
    expect(jsonLd[0].image).toContain(ogImage);

    // The article's image: content-hashed URL, its SVG's size in the markup, loaded, immutable.
    const image = page.locator('.article__figure img');
    await expect(image).toHaveAttribute('src', /^\/images\/[a-z0-9-]+\.[0-9a-f]{12}\.svg$/);
    await expect(image).toHaveJSProperty('complete', true);
    expect(await image.evaluate((element: HTMLImageElement) => [element.naturalWidth, element.naturalHeight])).toEqual([
      Number(await image.getAttribute('width')),
      Number(await image.getAttribute('height')),
    ]);
    const src = (await image.getAttribute('src'))!;
    const loaded = imageResponses.find((response) => response.url.endsWith(src));
    expect(loaded?.cacheControl).toBe('public, max-age=31536000, immutable');
    expect(problems.failedResponses).toEqual([]);
  });

  test('the head links the Atom feed, robots.txt names the sitemap, and both parse as XML in the browser', async ({ page, stack }) => {
    await page.goto(stack.url);
    const feedHref = await page.locator('head link[rel="alternate"][type="application/atom+xml"]').getAttribute('href');
    expect(feedHref).toBe('/feed.xml');
    const robots = await (await page.request.get(new URL('/robots.txt', stack.url).href)).text();
    const sitemapUrl = /^Sitemap: (.+)$/m.exec(robots)?.[1];
    expect(sitemapUrl).toBe(`${stack.baseUrl}/sitemap.xml`);
    const parsed = await page.evaluate(
      async ({ feed, sitemap }) => {
        const parse = async (url: string) => new DOMParser().parseFromString(await (await fetch(url)).text(), 'application/xml');
        const [feedDoc, sitemapDoc] = await Promise.all([parse(feed), parse(sitemap)]);
        return {
          errors: feedDoc.getElementsByTagName('parsererror').length + sitemapDoc.getElementsByTagName('parsererror').length,
          feedRoot: `${feedDoc.documentElement.namespaceURI} ${feedDoc.documentElement.localName}`,
          entries: feedDoc.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'entry').length,
          sitemapRoot: `${sitemapDoc.documentElement.namespaceURI} ${sitemapDoc.documentElement.localName}`,
          locs: [...sitemapDoc.getElementsByTagName('loc')].map((loc) => loc.textContent),
        };
      },
      { feed: feedHref!, sitemap: new URL(sitemapUrl!).pathname },
    );
    expect(parsed.errors).toBe(0);
    expect(parsed.feedRoot).toBe('http://www.w3.org/2005/Atom feed');
    expect(parsed.entries).toBe(Math.min(20, listArticles().length));
    expect(parsed.sitemapRoot).toBe('http://www.sitemaps.org/schemas/sitemap/0.9 urlset');
    expect(parsed.locs).toContain(`${stack.baseUrl}${article.url}`);
    const favicon = await page.request.get(new URL('/favicon.ico', stack.url).href);
    expect([favicon.status(), favicon.headers()['content-type']]).toEqual([200, 'image/x-icon']);
  });
});
