import { openServiceStorage, type ServiceStorage } from '@khs/team-service';
import { CONTACT_MIGRATIONS } from './contactMigrations.js';
import type { ContactRequestRepository } from './contactRequestRepository.js';
import { postgresContactRequestRepository } from './postgresContactRequestRepository.js';
import { sqliteContactRequestRepository } from './sqliteContactRequestRepository.js';

/** The service's name: its SQLite file `contact.sqlite`, its PostgreSQL schema `contact`. */
export const CONTACT_SERVICE_NAME = 'contact';

/** Where the contact service keeps its requests. */
export interface ContactStorageOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema; default `contact`. */
  schema?: string | undefined;
}

/** The contact service's open storage (attachment bytes are files, see `attachmentStore.ts`). */
export type ContactStorage = ServiceStorage<{ contactRequests: ContactRequestRepository }>;

/** Opens and migrates the contact storage: `<dataDir>/contact.sqlite`, or the `contact` schema with `databaseUrl`. */
export async function openContactStorage(options: ContactStorageOptions): Promise<ContactStorage> {
  return openServiceStorage({ name: CONTACT_SERVICE_NAME, migrations: CONTACT_MIGRATIONS, ...options }, {
    sqlite: (db) => ({ contactRequests: sqliteContactRequestRepository(db) }),
    postgres: (pool) => ({ contactRequests: postgresContactRequestRepository(pool) }),
  });
}
