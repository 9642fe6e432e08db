import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewContactRequest } from './contactRequestRepository.js';
import { openContactStorage, type ContactStorage } from './openContactStorage.js';

const withAttachment: NewContactRequest = {
  name: 'Ada Lovelace ü "quoted"',
  email: 'ada@example.org',
  message: "Line one\nLine two with 'quotes' and ; DROP TABLE contact_requests; --",
  passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
  attachment: { storageId: 'AAAAAAAAAAAAAAAAAAAAAA', fileName: 'Workshop plan (v2).pdf', sizeBytes: 5 * 1024 * 1024, mimeType: 'application/pdf' },
};

/** The behaviour both dialects' contact-request repositories must have. */
function describeContactRequests(label: string, open: () => Promise<ContactStorage>, dispose: () => Promise<void>): void {
  describe(`contact requests (${label})`, () => {
    let storage: ContactStorage;
    const database = () => storage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
      await dispose();
    });

    it('stores a request with password hash and attachment and returns it unchanged', async () => {
      const before = await database().contactRequests.count();
      const id = await database().contactRequests.create(withAttachment);
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const stored = await database().contactRequests.get(id);
      expect(stored).toEqual({ ...withAttachment, id, createdAt: expect.any(String) });
      expect(Math.abs(Date.parse(stored!.createdAt) - Date.now())).toBeLessThan(60 * 60 * 1000);
      expect(await database().contactRequests.count()).toBe(before + 1);
    });

    it('stores a request without password and attachment, leaving both absent', async () => {
      const id = await database().contactRequests.create({ name: 'B', email: 'b@example.org', message: 'Hi' });
      const stored = await database().contactRequests.get(id);
      expect(stored).toEqual({ id, name: 'B', email: 'b@example.org', message: 'Hi', createdAt: expect.any(String) });
      expect(stored).not.toHaveProperty('passwordHash');
      expect(stored).not.toHaveProperty('attachment');
    });

    it('gives each request its own id', async () => {
      const ids = await Promise.all(
        Array.from({ length: 20 }, () => database().contactRequests.create({ name: 'C', email: 'c@example.org', message: 'same' })),
      );
      expect(new Set(ids).size).toBe(20);
    });

    it('gives undefined for unknown and malformed ids', async () => {
      expect(await database().contactRequests.get('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
      expect(await database().contactRequests.get("x' OR '1'='1")).toBeUndefined();
      expect(await database().contactRequests.get('')).toBeUndefined();
    });
  });
}

let dataDir = '';
describeContactRequests(
  'SQLite',
  async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-storage-'));
    return openContactStorage({ dataDir });
  },
  async () => rmSync(dataDir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (!databaseUrl) console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeContactRequests('PostgreSQL', () => openContactStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
}
