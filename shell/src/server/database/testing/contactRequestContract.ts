import { describe, expect, it } from 'vitest';
import type { Database, NewContactRequest } from '../types.js';

const withAttachment: NewContactRequest = {
  name: 'Ada Lovelace ü "quoted"',
  email: 'ada@example.org',
  message: "Line one\nLine two with 'quotes' and ; DROP TABLE contact_requests; --",
  passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
  attachment: { storageId: 'AAAAAAAAAAAAAAAAAAAAAA', fileName: 'Workshop plan (v2).pdf', sizeBytes: 5 * 1024 * 1024, mimeType: 'application/pdf' },
};

/** Contact-request behaviour every `Database` must have; `database()` is the open database of the suite. */
export function describeContactRequestContract(database: () => Database): void {
  describe('contact requests', () => {
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
