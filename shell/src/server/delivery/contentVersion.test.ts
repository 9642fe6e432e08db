// A content change reaches every cache: the page tag follows the content itself, so every shell
// instance reading the same folder tags a page alike, and a saved file re-tags it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultArticlesDir } from '@khs/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellApp } from '../app.js';
import { createLiveContentStore, repositoryContentStore, type ContentStore } from '../content/contentStore.js';
import { buildTestApp } from '../testing/buildTestApp.js';

type LiveStore = ReturnType<typeof createLiveContentStore>;

/** Resolves at the store's next change (the watcher's debounced read). */
function nextChange(store: LiveStore): Promise<string> {
  return new Promise((resolve) => {
    const stop = store.onChange((version) => {
      stop();
      resolve(version);
    });
  });
}

describe('content version: two shells on one content folder', () => {
  let dir: string;
  const stores: LiveStore[] = [];
  const shells: ShellApp[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'khs-shell-content-version-'));
    cpSync(defaultArticlesDir, dir, { recursive: true });
    for (let instance = 0; instance < 2; instance++) {
      const store = createLiveContentStore(dir);
      stores.push(store);
      shells.push(await buildTestApp({ content: store }));
    }
  });
  afterAll(async () => {
    for (const shell of shells) await shell.app.close();
    for (const store of stores) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function etags(url: string): Promise<string[]> {
    return Promise.all(shells.map(async (shell) => (await shell.app.inject({ method: 'GET', url })).headers.etag as string));
  }

  it('tags a page alike in both, and both re-tag it (alike) after the article file is edited', async () => {
    const article = stores[0]!.listArticles()[0]!;
    const [before, other] = await etags(article.url);
    expect(before).toMatch(/^W\/"/);
    expect(other).toBe(before);

    const file = path.join(dir, `${article.id}.md`);
    const changes = Promise.all(stores.map(nextChange));
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n\nA sentence added by the editor: Quarzitfelsen.\n`);
    await changes;

    const [after, otherAfter] = await etags(article.url);
    expect(after).not.toBe(before);
    expect(otherAfter).toBe(after);
    const page = await shells[1]!.app.inject({ method: 'GET', url: article.url, headers: { 'if-none-match': before } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Quarzitfelsen');
  });
});

describe('content version: a store without a version of its own', () => {
  it("re-tags every page when the store's onChange fires (the shell calls pageVersion.contentChanged())", async () => {
    const listeners = new Set<(version: string) => void>();
    const content: ContentStore = {
      ...repositoryContentStore,
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const shell = await buildTestApp({ content });
    try {
      const url = repositoryContentStore.listArticles()[0]!.url;
      const before = (await shell.app.inject({ method: 'GET', url })).headers.etag;
      expect((await shell.app.inject({ method: 'GET', url })).headers.etag).toBe(before);
      for (const listener of listeners) listener('published');
      expect((await shell.app.inject({ method: 'GET', url })).headers.etag).not.toBe(before);
    } finally {
      await shell.app.close();
    }
    expect(listeners.size).toBe(0);
  });
});
