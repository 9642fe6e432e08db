import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentImagesDir, formatArticleProblem, formatLiveArticleProblem } from '../index.js';
import { ArticleFolderReader, isPublicArticle } from './article-folder.js';
import { createLiveArticleStore, type LiveArticleStore } from './live-article-store.js';
import { articleText } from './test-support.js';


const dirs: string[] = [];
const stores: LiveArticleStore[] = [];
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'khs-articles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
afterEach(() => {
  stores.splice(0).forEach((store) => store.close());
  dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});
const options = { surveyHandles: new Set<string>(), imagesDir: contentImagesDir };
/** Sets a file's modification time `secondsAgo` in the past. */
function setAge(file: string, secondsAgo: number): void {
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(file, at, at);
}

describe('ArticleFolderReader', () => {
  it('serves the good files when one is bad, and names the bad one', () => {
    const dir = folder({ 'a.md': articleText('A'), 'b.md': articleText('B').replace('Coaching', 'Cooking') });
    const snapshot = new ArticleFolderReader(dir, options).read();
    expect(snapshot.articles.map((a) => a.id)).toEqual(['a']);
    expect(snapshot.problems.map(formatArticleProblem)).toEqual([expect.stringMatching(/^b\.md:5: topic\[0\]: unknown topic "Cooking"/)]);
  });

  it('finds an image next to its article, and reads a file again once its missing image is added', () => {
    const cover = (name: string) => articleText('A').replace('image: /content-images/default.svg', `image: ./${name}`);
    const dir = folder({ 'team/a.md': cover('cover.png'), 'team/cover.png': 'png bytes', 'b.md': cover('later.png') });
    const reader = new ArticleFolderReader(dir, options);
    const first = reader.read();
    expect(first.articles.map((a) => [a.id, a.image])).toEqual([['a', '/content-article-images/team/cover.png']]);
    expect(first.problems.map(formatArticleProblem)).toEqual([expect.stringMatching(/^b\.md:\d+: image: the image \.\/later\.png is not there/)]);
    writeFileSync(join(dir, 'later.png'), 'png bytes');
    expect(reader.read().articles.map((a) => a.image).sort()).toEqual(['/content-article-images/later.png', '/content-article-images/team/cover.png']);
  });

  it('refuses an image next to the article that is a link leading out of the folder', () => {
    const outside = folder({ 'secret.png': 'not for the site' });
    const dir = folder({ 'a.md': articleText('A').replace('image: /content-images/default.svg', 'image: ./leak.png') });
    symlinkSync(join(outside, 'secret.png'), join(dir, 'leak.png'));
    const snapshot = new ArticleFolderReader(dir, options).read();
    expect(snapshot.articles).toEqual([]);
    expect(snapshot.problems.map(formatArticleProblem)).toEqual([expect.stringMatching(/^a\.md:\d+: image: the image \.\/leak\.png is not there/)]);
  });

  it('reports the same id in two folders, naming both files; on a first read the older file keeps it, whichever sorts first', () => {
    const dir = folder({ '2024/same.md': articleText('Newer'), 'same.md': articleText('Older') });
    setAge(join(dir, 'same.md'), 3600);
    const snapshot = new ArticleFolderReader(dir, options).read();
    expect(snapshot.articles.map((a) => a.headline)).toEqual(['Older']);
    expect(snapshot.filesById.get('same')).toBe('same.md');
    expect(snapshot.problems.map(formatArticleProblem)).toEqual([
      '2024/same.md:1: the id "same" is already used by same.md, which stays live: this file is refused; ids are file names and must be unique across folders, rename or remove one',
    ]);
  });

  it('a missing folder is a problem, not an exception', () => {
    const snapshot = new ArticleFolderReader(join(tmpdir(), 'khs-no-such-folder-x'), options).read();
    expect(snapshot.articles).toEqual([]);
    expect(snapshot.problems[0]?.message).toMatch(/cannot be read/);
  });
});

describe('public articles', () => {
  it('keeps drafts and future dates off, until they are due', () => {
    const dir = folder({ 'live.md': articleText('Live'), 'draft.md': articleText('Draft', 'draft: true\n'), 'later.md': articleText('Later', '', '2030-01-01T08:00:00Z') });
    let now = Date.UTC(2029, 11, 31);
    const store = createLiveArticleStore({ dir, ...options, watch: false, now: () => now });
    stores.push(store);
    expect(store.publicArticles().map((a) => a.id)).toEqual(['live']);
    expect(store.getPublicArticle('draft')).toBeUndefined();
    expect(store.getPublicArticle('later')).toBeUndefined();
    expect(store.getArticle('draft')?.headline).toBe('Draft');
    const before = store.version();
    now = Date.UTC(2030, 0, 1, 8);
    store.refresh();
    expect(store.publicArticles().map((a) => a.id)).toEqual(['later', 'live']);
    expect(store.version()).not.toBe(before);
    expect(isPublicArticle(store.getArticle('draft')!, now)).toBe(false);
  });
});

describe('no edit takes an article down', () => {
  function liveStore(dir: string) {
    const told: string[] = [];
    const store = createLiveArticleStore({ dir, ...options, watch: false, onProblems: (problems) => told.push(...problems.map(formatLiveArticleProblem)) });
    stores.push(store);
    return { store, told };
  }

  it('a broken edit of a served article keeps its last good version live until the file is fixed; removing the file removes it', () => {
    const dir = folder({ 'a.md': articleText('A'), 'b.md': articleText('B') });
    const { store, told } = liveStore(dir);
    const version = store.version();
    writeFileSync(join(dir, 'a.md'), articleText('A broken').replace('Coaching', 'Cooking'));
    store.refresh();
    expect(store.getPublicArticle('a')?.headline).toBe('A');
    expect(store.publicArticles().map((a) => a.id)).toEqual(['a', 'b']);
    expect(store.version()).toBe(version);
    expect(told).toEqual([expect.stringMatching(/^content problem \(its last good version stays live\): a\.md:5: topic\[0\]: unknown topic "Cooking"/)]);
    // The same problem is told once, not at every read.
    store.refresh();
    expect(told).toHaveLength(1);

    writeFileSync(join(dir, 'a.md'), articleText('A fixed'));
    store.refresh();
    expect(store.getPublicArticle('a')?.headline).toBe('A fixed');
    expect(store.snapshot().problems).toEqual([]);
    writeFileSync(join(dir, 'a.md'), '---\nheadline: [unclosed\n---\n\nBody.\n');
    store.refresh();
    expect(store.getPublicArticle('a')?.headline).toBe('A fixed');
    expect(told[1]).toMatch(/^content problem \(its last good version stays live\): a\.md:\d+:\d+: the front matter is not valid YAML/);
    rmSync(join(dir, 'a.md'));
    store.refresh();
    expect(store.getPublicArticle('a')).toBeUndefined();
  });

  it('a file that was never valid is left out, and its problem says so', () => {
    const dir = folder({ 'a.md': articleText('A').replace('Coaching', 'Cooking') });
    const { store, told } = liveStore(dir);
    expect(store.publicArticles()).toEqual([]);
    expect(told).toEqual([expect.stringMatching(/^content problem \(article left out\): a\.md:5: topic\[0\]/)]);
  });

  it('a second file with a served id is refused, naming both files, whichever sorts first and however old it is', () => {
    const dir = folder({ 'change-fatigue.md': articleText('Original') });
    const { store, told } = liveStore(dir);
    const version = store.version();
    // Sorts first ("2" before "c") and claims to be older: the served file keeps the id all the same.
    mkdirSync(join(dir, '2026'));
    writeFileSync(join(dir, '2026', 'change-fatigue.md'), articleText('Takeover'));
    setAge(join(dir, '2026', 'change-fatigue.md'), 86_400);
    store.refresh();
    expect(store.getPublicArticle('change-fatigue')?.headline).toBe('Original');
    expect(store.version()).toBe(version);
    expect(told).toEqual([
      'content problem (article left out): 2026/change-fatigue.md:1: the id "change-fatigue" is already used by change-fatigue.md, which stays live: this file is refused; ids are file names and must be unique across folders, rename or remove one',
    ]);
    // A broken edit of the holder does not hand its id over either.
    writeFileSync(join(dir, 'change-fatigue.md'), articleText('Original broken').replace('Coaching', 'Cooking'));
    store.refresh();
    expect(store.getPublicArticle('change-fatigue')?.headline).toBe('Original');
    // Once the holder is removed, the other file is the article.
    rmSync(join(dir, 'change-fatigue.md'));
    store.refresh();
    expect(store.getPublicArticle('change-fatigue')?.headline).toBe('Takeover');
  });
});

describe('createLiveArticleStore watching the folder', () => {
  it('follows a saved, an added and a removed file without being asked', async () => {
    const dir = folder({ 'a.md': articleText('A') });
    const store = createLiveArticleStore({ dir, ...options, debounceMs: 20 });
    stores.push(store);
    const changes: string[] = [];
    store.onChange((version) => changes.push(version));
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(check()).toBe(true);
    };
    writeFileSync(join(dir, 'b.md'), articleText('B'));
    await until(() => store.getPublicArticle('b') !== undefined);
    writeFileSync(join(dir, 'b.md'), articleText('B changed'));
    await until(() => store.getPublicArticle('b')?.headline === 'B changed');
    rmSync(join(dir, 'a.md'));
    await until(() => store.getPublicArticle('a') === undefined);
    expect(changes.length).toBeGreaterThanOrEqual(3);
  });
});
