import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { createLiveContentStore, type Article } from '../content/contentStore.js';
import { pageContentReader } from '../pages/pageContentReader.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import type { ImageCatalogue } from './imageCatalogue.js';

const BASE = 'https://khs.example';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A PNG or JPEG of the given size (a gradient, so renditions differ). */
async function raster(width: number, height: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < width * height; index += 1) pixels.writeUInt8((index % width) % 256, index * 3);
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** An article file whose cover, gallery and body images live next to it. */
function articleFile(headline: string, cover: string, body: string, gallery = ''): string {
  return `---\nheadline: ${headline}\ntitle: ${headline}\nintro: Intro.\ntopic: [Coaching]\ndate: 2025-03-14\nimage: ${cover}\nimageAlt: The cover of ${headline}\ncta: Read more\n${gallery}---\n\n${body}\n`;
}

describe('images next to their article (temporary CONTENT_DIR)', () => {
  let dir: string;
  let app: FastifyInstance;
  let images: ImageCatalogue;
  let content: ReturnType<typeof createLiveContentStore>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'khs-article-images-'));
    mkdirSync(path.join(dir, 'team'));
    writeFileSync(path.join(dir, 'team/cover.png'), await raster(1600, 900));
    writeFileSync(path.join(dir, 'team/chart.png'), await raster(1000, 500));
    writeFileSync(path.join(dir, 'team/board.jpg'), await raster(800, 600, 'jpeg'));
    writeFileSync(
      path.join(dir, 'team/own-images.md'),
      articleFile('Own images', './cover.png', 'Text.\n\n![A chart of the quarter](./chart.png)', 'gallery:\n  - src: ./board.jpg\n    alt: A board\n    caption: The board\n'),
    );
    content = createLiveContentStore(dir);
    ({ app, images } = await buildTestApp({ content, env: { PUBLIC_BASE_URL: BASE, CONTENT_DIR: dir } }));
  });
  afterAll(async () => {
    await app?.close();
    content?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the article page writes its own cover by hashed URL with width, height and srcset, each candidate served immutable', async () => {
    const html = (await app.inject('/articles/own-images')).body;
    const img = /<img src="([^"]+)" srcSet="([^"]+)" sizes="[^"]+" alt="The cover of Own images" width="(\d+)" height="(\d+)"/.exec(html);
    expect(img).not.toBeNull();
    const [, src, srcset, width, height] = img!;
    expect(src).toMatch(/^\/images\/cover\.[0-9a-f]{12}\.png$/);
    expect([width, height]).toEqual(['1600', '900']);
    const candidates = srcset!.split(', ').map((candidate) => candidate.split(' ')[0]!);
    expect(candidates).toHaveLength(4);
    for (const url of candidates) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
    }
    expect((await sharp((await app.inject(src!)).rawPayload).metadata()).width).toBe(1600);
    // Social card and JSON-LD name the same hashed image.
    expect(/<meta property="og:image" content="https:\/\/khs\.example(\/images\/cover\.[0-9a-f]{12}\.1200w\.png)"/.exec(html)).not.toBeNull();
    expect(html).toContain(`"image":["${BASE}${src!.replace(/\.png$/, '.1200w.png')}","${BASE}${src}"]`);
  });

  it('a body image is written by hashed URL with width, height and srcset', async () => {
    const html = (await app.inject('/articles/own-images')).body;
    const img = /<img src="(\/images\/chart\.[0-9a-f]{12}\.png)" alt="A chart of the quarter" width="1000" height="500" srcset="([^"]+)" sizes="[^"]+" loading="lazy"/.exec(html);
    expect(img).not.toBeNull();
    expect(img![2]).toBe(`/images/chart.${img![1]!.split('.')[1]}.480w.webp 480w, /images/chart.${img![1]!.split('.')[1]}.960w.webp 960w, ${img![1]} 1000w`);
    const response = await app.inject(img![1]!);
    expect([response.statusCode, response.headers['cache-control']]).toEqual([200, IMMUTABLE]);
    expect(html).not.toContain('/content-article-images/');
  });

  it("the islands read the page's article and each of its pictures as served: hashed URL, size and srcset (the gallery widget's)", () => {
    const reader = pageContentReader(content, images);
    const article = reader.article('own-images') as Article;
    expect(reader.image(article.image)?.src).toMatch(/^\/images\/cover\.[0-9a-f]{12}\.png$/);
    expect(reader.image(article.gallery![0]!.src)).toEqual({
      src: expect.stringMatching(/^\/images\/board\.[0-9a-f]{12}\.jpg$/),
      width: 800,
      height: 600,
      srcset: expect.stringMatching(/\.480w\.webp 480w, .*\.jpg 800w$/),
    });
    expect(reader.image('/content-images/unknown.png')).toBeUndefined();
  });

  it('serves an image next to an article by its plain URL too, but never the Markdown', async () => {
    const image = await app.inject('/content-article-images/team/cover.png');
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await app.inject('/content-article-images/team/own-images.md')).statusCode).toBe(404);
    expect((await app.inject('/content-article-images/team/../team/cover.png')).statusCode).not.toBe(500);
  });

  it('an article added with its own image while the site runs shows it by hashed URL, without a restart', async () => {
    mkdirSync(path.join(dir, '2026'));
    writeFileSync(path.join(dir, '2026/new-photo.png'), await raster(700, 350));
    writeFileSync(path.join(dir, '2026/later.md'), articleFile('Added later', './new-photo.png', 'Body.'));
    await vi.waitFor(async () => expect((await app.inject('/articles/later')).statusCode).toBe(200), { timeout: 10_000, interval: 100 });
    const html = (await app.inject('/articles/later')).body;
    const src = /<img src="(\/images\/new-photo\.[0-9a-f]{12}\.png)" srcSet="[^"]+" sizes="[^"]+" alt="The cover of Added later" width="700" height="350"/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect((await app.inject(src!)).headers['cache-control']).toBe(IMMUTABLE);
  });
});
