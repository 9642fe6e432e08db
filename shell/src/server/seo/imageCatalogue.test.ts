import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { listArticles } from '@khs/content';
import type { Article, ContentStore } from '../content/contentStore.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { createImageCatalogue, type ImageCatalogue } from './imageCatalogue.js';

const BASE = 'https://khs.example';

/** A photo-like raster image of the given size (a gradient, so its renditions differ). */
async function raster(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < width * height; index += 1) pixels.writeUInt8((index % width) % 256, index * 3);
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

describe('content images: raster images get their size and WebP renditions for srcset', () => {
  let dir: string;
  let images: ImageCatalogue;
  let app: FastifyInstance;
  const photo: Article = { ...listArticles()[0]!, id: 'photo', url: '/articles/photo', image: '/content-images/photo.png', imageAlt: 'A photo' };
  const small: Article = { ...listArticles()[1]!, id: 'small', url: '/articles/small', image: '/content-images/small.jpg', imageAlt: 'A small photo' };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'khs-images-'));
    writeFileSync(path.join(dir, 'photo.png'), await raster(2000, 1000, 'png'));
    writeFileSync(path.join(dir, 'small.jpg'), await raster(400, 300, 'jpeg'));
    writeFileSync(path.join(dir, 'unsized.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>');
    writeFileSync(path.join(dir, 'broken.png'), 'not a png');
    writeFileSync(path.join(dir, 'notes.txt'), 'not an image');
    images = await createImageCatalogue({ dir, contentBaseUrl: '/content-images' });
    const content: ContentStore = { listArticles: () => [photo, small], getArticle: (id) => [photo, small].find((article) => article.id === id) };
    ({ app } = await buildTestApp({ content, images, env: { PUBLIC_BASE_URL: BASE } }));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes what it can size and leaves the rest to their content URL', () => {
    expect(images.resolve('/content-images/photo.png')).toMatchObject({ width: 2000, height: 1000, type: 'image/png' });
    expect(images.resolve('/content-images/small.jpg')).toMatchObject({ width: 400, height: 300, type: 'image/jpeg' });
    for (const left of ['unsized.svg', 'broken.png', 'notes.txt']) expect(images.resolve(`/content-images/${left}`)).toBeUndefined();
  });

  it('the article page writes srcset and sizes; each candidate is served immutable at the width it states', async () => {
    const html = (await app.inject(photo.url)).body;
    const img = /<img src="([^"]+)" srcSet="([^"]+)" sizes="([^"]+)" alt="A photo" width="(\d+)" height="(\d+)"/.exec(html);
    expect(img).not.toBeNull();
    const [, src, srcset, sizes, width, height] = img!;
    expect([width, height]).toEqual(['2000', '1000']);
    expect(sizes).toBe('(min-width: 50rem) 45rem, calc(100vw - 5rem)');
    const candidates = srcset!.split(', ').map((candidate) => candidate.split(' ') as [string, string]);
    expect(candidates.map(([, descriptor]) => descriptor)).toEqual(['480w', '960w', '1440w', '2000w']);
    expect(candidates.at(-1)![0]).toBe(src);
    for (const [url, descriptor] of candidates) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(response.rawPayload).metadata();
      expect(meta.format).toBe(url === src ? 'png' : 'webp');
      expect(`${meta.width}w`).toBe(descriptor);
      expect(meta.height).toBe(Number(descriptor.slice(0, -1)) / 2);
    }
    // The social card's PNG of a raster image, 1200 px wide.
    const card = /<meta property="og:image" content="([^"]+)"/.exec(html)![1]!;
    const meta = await sharp((await app.inject(new URL(card).pathname)).rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 600]);
  });

  it('an image narrower than every rendition has only itself in srcset; a width not offered is 404', async () => {
    const html = (await app.inject(small.url)).body;
    const img = /<img src="([^"]+)" srcSet="([^"]+)"/.exec(html)!;
    expect(img[2]).toBe(`${img[1]} 400w`);
    expect((await app.inject(img[1]!.replace(/\.jpg$/, '.480w.webp'))).statusCode).toBe(404);
  });
});
