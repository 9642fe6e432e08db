import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchlistStorage, type WatchlistStorage } from './openWatchlistStorage.js';

/** The behaviour both dialects' share repositories must have. */
function describeShareRepository(label: string, open: () => Promise<WatchlistStorage>, dispose: () => Promise<void>) {
  describe(`watchlist share repository (${label})`, () => {
    let storage: WatchlistStorage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
      await dispose();
    });

      it('stores a list under an unguessable id and returns it in order', async () => {
        const articles = { z9: { title: 'Zeta' }, a1: { title: 'Alpha "quoted" ü' }, m5: { title: 'Mu' } };
        const id = (await storage.shares.create(articles))!;
        expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
        const stored = await storage.shares.get(id);
        expect(stored).toEqual(articles);
        expect(Object.keys(stored ?? {})).toEqual(['z9', 'a1', 'm5']);
      });

      it('keeps one row per distinct list, even when 20 visitors share it at once', async () => {
        const ids = await Promise.all(Array.from({ length: 20 }, () => storage.shares.create({ a: { title: 'A' } })));
        expect(new Set(ids).size).toBe(1);
        const other = await storage.shares.create({ b: { title: 'B' }, a: { title: 'A' } });
        const reordered = await storage.shares.create({ a: { title: 'A' }, b: { title: 'B' } });
        expect(new Set([ids[0], other, reordered]).size).toBe(3);
      });

      it('stores only the title of each entry', async () => {
        const id = (await storage.shares.create({ a: { title: 'A', extra: 'x' } as { title: string } }))!;
        expect(await storage.shares.get(id)).toEqual({ a: { title: 'A' } });
      });

      it('stores an empty list', async () => {
        const id = (await storage.shares.create({}))!;
        expect(await storage.shares.get(id)).toEqual({});
      });

      it('adds a new row only while its creator is under the bound (per address, per visitor, since a time); an equal list keeps its id', async () => {
        const bound = (addressKey: string, visitorKey: string | undefined, since = new Date(Date.now() - 60_000)) => ({ creator: { addressKey, visitorKey }, since, perAddress: 3, perVisitor: 2 });
        const list = (name: string) => ({ [name]: { title: name } });
        const visitorIds = [await storage.shares.create(list('v1'), bound('addr-1', 'visitor-1')), await storage.shares.create(list('v2'), bound('addr-1', 'visitor-1'))];
        expect(visitorIds.every((id) => typeof id === 'string')).toBe(true);
        expect(await storage.shares.create(list('v3'), bound('addr-1', 'visitor-1'))).toBeUndefined();
        expect(await storage.shares.create(list('v1'), bound('addr-1', 'visitor-1'))).toBe(visitorIds[0]);
        // The address has one more; then it is full for every visitor.
        expect(await storage.shares.create(list('v4'), bound('addr-1', 'visitor-2'))).toEqual(expect.any(String));
        expect(await storage.shares.create(list('v5'), bound('addr-1', 'visitor-3'))).toBeUndefined();
        expect(await storage.shares.create(list('v6'), bound('addr-1', undefined))).toBeUndefined();
        // Rows before `since` do not count; other creators are unaffected.
        expect(await storage.shares.create(list('v7'), bound('addr-1', 'visitor-1', new Date(Date.now() + 60_000)))).toEqual(expect.any(String));
        expect(await storage.shares.create(list('v8'), bound('addr-2', 'visitor-9'))).toEqual(expect.any(String));
      });

      it('gives undefined for unknown and malformed ids', async () => {
        expect(await storage.shares.get('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
        expect(await storage.shares.get("x' OR '1'='1")).toBeUndefined();
        expect(await storage.shares.get('')).toBeUndefined();
      });
  });
}

let dir = '';
describeShareRepository(
  'SQLite',
  async () => openWatchlistStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-watchlist-storage-'))) }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeShareRepository('PostgreSQL', () => openWatchlistStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
