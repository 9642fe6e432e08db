import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServiceMigrations } from './migration.js';
import { openServiceStorage } from './openServiceStorage.js';

const MIGRATIONS: ServiceMigrations = {
  sqlite: [{ version: 1, name: 'notes', sql: 'CREATE TABLE notes (body TEXT NOT NULL)' }],
  postgres: [{ version: 1, name: 'notes', sql: 'CREATE TABLE notes (body TEXT NOT NULL)' }],
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-team-storage-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('openServiceStorage', () => {
  it("builds the dialect's repositories on the migrated database, with a health check and close", async () => {
    const storage = await openServiceStorage(
      { name: 'notes', dataDir, migrations: MIGRATIONS },
      {
        sqlite: (db) => ({
          notes: {
            add: async (body: string) => void db.prepare('INSERT INTO notes (body) VALUES (?)').run(body),
            count: async () => (db.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n,
          },
        }),
        postgres: () => {
          throw new Error('SQLite expected without a database URL');
        },
      },
    );
    expect(storage.dialect).toBe('sqlite');
    await storage.notes.add('kept');
    expect(await storage.notes.count()).toBe(1);
    await expect(storage.check()).resolves.toBeUndefined();
    await storage.close();
    // Closed: the health check now fails instead of answering from a dead handle.
    await expect(storage.check()).rejects.toThrow();
  });
});
