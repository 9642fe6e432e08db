// The running watchlist service follows the article folder (CONTENT_DIR): an article added while it
// runs is resolved, listed as related and printed, without a restart.
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { StoredWatchlist } from 'contracts';
import { defaultArticlesDir } from '@khs/content';
import { EDGE_KEY_HEADER, LINK_ORIGIN_HEADER, edgeKeyOf } from '@khs/team-service/edge';
import { buildWatchlistService } from './buildWatchlistService.js';
import { openWatchlistStorage, type WatchlistStorage } from './storage/openWatchlistStorage.js';
import { createLiveWatchlistContent } from './watchlistContent.js';

const EDGE_KEY = edgeKeyOf('watchlist-live-content-test-secret-0123456789');
const NEW_ID = 'quarzitfelsen-coaching';

function articleFile(headline: string): string {
  return `---\nheadline: ${headline}\ntitle: ${headline}\nintro: Intro.\ntopic: [Coaching]\ndate: 2025-03-14\nimage: /content-images/default.svg\nimageAlt: Grey\ncta: Read more\n---\n\nAbout ${headline}.\n`;
}

describe('watchlist service on a watched content folder', () => {
  let dir: string;
  let dataDir: string;
  let storage: WatchlistStorage;
  let content: ReturnType<typeof createLiveWatchlistContent>;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'khs-watchlist-content-'));
    dataDir = mkdtempSync(path.join(tmpdir(), 'khs-watchlist-data-'));
    cpSync(defaultArticlesDir, dir, { recursive: true });
    storage = await openWatchlistStorage({ dataDir });
    content = createLiveWatchlistContent(dir);
    app = await buildWatchlistService({ storage, content, edgeKey: EDGE_KEY, siteName: 'KHS Competence' });
  });
  afterAll(async () => {
    await app?.close();
    content?.close();
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function resolvedIds(ids: string[]): Promise<string[]> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/watchlist',
      headers: { 'content-type': 'application/json', accept: 'application/json', [EDGE_KEY_HEADER]: EDGE_KEY, [LINK_ORIGIN_HEADER]: 'http://localhost' },
      payload: JSON.stringify({ storedWatchlist: { articles: Object.fromEntries(ids.map((id) => [id, { title: `saved ${id}` }])) } }),
    });
    expect(response.statusCode).toBe(200);
    return Object.keys((response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.articles);
  }

  it('resolves an article added to the folder while it runs, and drops it again when the file goes', async () => {
    const known = content.listArticles()[0]!.id;
    expect(await resolvedIds([known, NEW_ID])).toEqual([known]);

    writeFileSync(path.join(dir, `${NEW_ID}.md`), articleFile('Quarzitfelsen coaching'));
    await vi.waitFor(async () => expect(await resolvedIds([known, NEW_ID])).toEqual([known, NEW_ID]), { timeout: 10_000, interval: 100 });

    unlinkSync(path.join(dir, `${NEW_ID}.md`));
    await vi.waitFor(async () => expect(await resolvedIds([known, NEW_ID])).toEqual([known]), { timeout: 10_000, interval: 100 });
  });

  it('leaves a bad file out, keeps serving the others, and keeps the last good version of an article an edit broke', async () => {
    const known = content.listArticles()[0]!.id;
    writeFileSync(path.join(dir, 'broken.md'), articleFile('Broken').replace('Coaching', 'Cooking'));
    writeFileSync(path.join(dir, `${NEW_ID}.md`), articleFile('Quarzitfelsen coaching'));
    await vi.waitFor(async () => expect(await resolvedIds([NEW_ID])).toEqual([NEW_ID]), { timeout: 10_000, interval: 100 });
    writeFileSync(path.join(dir, `${NEW_ID}.md`), articleFile('Quarzitfelsen coaching').replace('Coaching', 'Cooking'));
    writeFileSync(path.join(dir, 'later.md'), articleFile('Later'));
    // Once the file written after the broken edit is read, the edit has been read too.
    await vi.waitFor(async () => expect(await resolvedIds(['later'])).toEqual(['later']), { timeout: 10_000, interval: 100 });
    expect(await resolvedIds([known, 'broken', NEW_ID])).toEqual([known, NEW_ID]);
    unlinkSync(path.join(dir, `${NEW_ID}.md`));
    unlinkSync(path.join(dir, 'later.md'));
    await vi.waitFor(async () => expect(await resolvedIds([NEW_ID, 'later'])).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});
