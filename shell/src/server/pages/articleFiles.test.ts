import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { defaultArticlesDir, previewPath } from '@khs/content';
import { createLiveContentStore } from '../content/contentStore.js';
import { buildTestApp } from '../testing/buildTestApp.js';

const SECRET = 'preview-secret-for-tests-0123456789';

// Yesterday: the newest article, so the home page's first teasers list it.
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

function articleFile(headline: string, extra: string, body: string, date = YESTERDAY): string {
  return `---\nheadline: ${headline}\ntitle: ${headline} title\nintro: Intro of ${headline}.\ntopic: [Coaching]\ndate: ${date}\nimage: /content-images/default.svg\nimageAlt: Grey square\ncta: Read more\n${extra}---\n\n${body}\n`;
}

describe('articles from Markdown files: body, drafts, schedules, previews', () => {
  let app: FastifyInstance;
  let dir: string;
  let store: ReturnType<typeof createLiveContentStore>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'khs-shell-articles-'));
    cpSync(defaultArticlesDir, dir, { recursive: true });
    writeFileSync(join(dir, 'rich-body.md'), articleFile('Rich body', '', '## Why\n\nA [link](https://example.org/) and *emphasis*.\n\n- first\n- second\n\n> A quote <script>alert(1)</script>'));
    writeFileSync(join(dir, 'secret-draft.md'), articleFile('Secret draft', 'draft: true\n', 'Draft text.'));
    writeFileSync(join(dir, 'future-piece.md'), articleFile('Future piece', '', 'Not yet.', '2099-01-01'));
    store = createLiveContentStore(dir);
    ({ app } = await buildTestApp({ content: store, env: { PREVIEW_SECRET: SECRET } }));
  });
  afterAll(async () => {
    await app.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the Markdown body as safe HTML in the article', async () => {
    const response = await app.inject('/articles/rich-body');
    expect(response.statusCode).toBe(200);
    const body = /<div class="article__content">([\s\S]*?)<\/div>/.exec(response.body)?.[1];
    expect(body).toContain('<h2>Why</h2>');
    expect(body).toContain('<a href="https://example.org/">link</a>');
    expect(body).toContain('<em>emphasis</em>');
    expect(body).toContain('<li>second</li>');
    expect(body).toContain('<blockquote>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>alert(1)');
  });

  it('a seeded article keeps its paragraphs', async () => {
    const response = await app.inject('/articles/negotiating-with-suppliers');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<p>Procurement teams are often measured on savings, so negotiations with suppliers focus on price.');
  });

  it('keeps a draft and a scheduled article off the pages and the home list', async () => {
    expect((await app.inject('/articles/secret-draft')).statusCode).toBe(404);
    expect((await app.inject('/articles/future-piece')).statusCode).toBe(404);
    const home = (await app.inject('/')).body;
    expect(home).toContain('href="/articles/rich-body"');
    expect(home).not.toContain('secret-draft');
    expect(home).not.toContain('future-piece');
  });

  it('shows a draft and a scheduled article through a valid preview link only, uncached and noindex', async () => {
    const expires = Math.floor(Date.now() / 1000) + 600;
    for (const id of ['secret-draft', 'future-piece']) {
      const response = await app.inject(previewPath(id, expires, SECRET));
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      // The page's metadata says noindex (the SEO head); the header adds nofollow for crawlers.
      expect(response.body).toContain('<meta name="robots" content="noindex"/>');
      expect(response.body).toContain(id === 'secret-draft' ? 'Draft text.' : 'Not yet.');
    }
    const valid = previewPath('secret-draft', expires, SECRET);
    const expired = previewPath('secret-draft', Math.floor(Date.now() / 1000) - 1, SECRET);
    const forged = previewPath('secret-draft', expires, 'another-secret-of-enough-length');
    const otherId = valid.replace('secret-draft', 'future-piece');
    const longer = valid.replace(`expires=${expires}`, `expires=${expires + 3600}`);
    for (const url of [expired, forged, otherId, longer, '/preview/articles/secret-draft']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('Draft text.');
    }
  });

  it('without PREVIEW_SECRET previews are off', async () => {
    const { app: plain } = await buildTestApp({ content: store });
    const response = await plain.inject(previewPath('secret-draft', Math.floor(Date.now() / 1000) + 600, SECRET));
    expect(response.statusCode).toBe(404);
    await plain.close();
  });
});
