import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Folder of contact attachments inside the data directory. */
export const CONTACT_ATTACHMENTS_FOLDER = 'contact-attachments';

/** Where attachment bytes are kept: one file per attachment, named by a random id. */
export interface AttachmentStore {
  /** Writes the bytes to a new file and returns its storage id (128 random bits, base64url). */
  save(bytes: Buffer): Promise<string>;
  /** Deletes a stored file (used when the request could not be stored); no error if it is gone. */
  remove(storageId: string): Promise<void>;
  /** Path of a stored file. */
  pathOf(storageId: string): string;
}

const STORAGE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * Attachments under `<dataDir>/contact-attachments/`. File names are server-chosen random ids,
 * never the visitor's name, so nothing the visitor sends decides a path. Files are readable
 * by the server's user only.
 */
export function createAttachmentStore(dataDir: string): AttachmentStore {
  const folder = path.join(dataDir, CONTACT_ATTACHMENTS_FOLDER);
  const pathOf = (storageId: string) => {
    if (!STORAGE_ID_PATTERN.test(storageId)) throw new Error('Invalid attachment storage id');
    return path.join(folder, storageId);
  };
  return {
    async save(bytes) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const storageId = randomBytes(16).toString('base64url');
      await writeFile(pathOf(storageId), bytes, { flag: 'wx', mode: 0o600 });
      return storageId;
    },
    async remove(storageId) {
      await rm(pathOf(storageId), { force: true });
    },
    pathOf,
  };
}
