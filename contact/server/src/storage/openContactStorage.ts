import { openServiceDatabase, type ServiceDatabase } from '@khs/team-service';
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
export interface ContactStorage {
  contactRequests: ContactRequestRepository;
  dialect: ServiceDatabase['dialect'];
  /** Throws when the database cannot be reached (for `/health`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Opens and migrates the contact storage: `<dataDir>/contact.sqlite`, or the `contact` schema with `databaseUrl`. */
export async function openContactStorage(options: ContactStorageOptions): Promise<ContactStorage> {
  const database = await openServiceDatabase({ name: CONTACT_SERVICE_NAME, migrations: CONTACT_MIGRATIONS, ...options });
  if (database.dialect === 'sqlite') {
    return {
      dialect: 'sqlite',
      contactRequests: sqliteContactRequestRepository(database.sqlite),
      check: async () => void database.sqlite.prepare('SELECT 1').get(),
      close: () => database.close(),
    };
  }
  return {
    dialect: 'postgres',
    contactRequests: postgresContactRequestRepository(database.pool),
    check: async () => void (await database.pool.query('SELECT 1')),
    close: () => database.close(),
  };
}
