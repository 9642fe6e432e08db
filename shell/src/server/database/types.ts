/** Metadata of a contact request's attachment; the bytes live in a file named by `storageId`. */
export interface ContactAttachmentRecord {
  /** Name of the stored file (random, chosen by the server), not the visitor's file name. */
  storageId: string;
  /** The visitor's original file name (display only; never used as a path). */
  fileName: string;
  sizeBytes: number;
  /** Checked MIME type, e.g. `application/pdf`. */
  mimeType: string;
}

/** A message to the editorial team or a workshop request from an anonymous visitor. */
export interface NewContactRequest {
  name: string;
  email: string;
  message: string;
  /** Salted scrypt hash of the optional request password; never the password itself. */
  passwordHash?: string;
  attachment?: ContactAttachmentRecord;
}

/** A stored contact request. */
export interface StoredContactRequest extends NewContactRequest {
  /** 128 random bits, base64url (22 characters). */
  id: string;
  /** ISO 8601 instant the request was stored. */
  createdAt: string;
}

/** Contact requests. */
export interface ContactRequestRepository {
  /** Stores the request under a new unguessable id and returns the id. */
  create(request: NewContactRequest): Promise<string>;
  /** The stored request, or undefined for an unknown or malformed id. */
  get(id: string): Promise<StoredContactRequest | undefined>;
  /** How many requests are stored. */
  count(): Promise<number>;
}

/** Hits counted in the current window of one rate-limit key. */
export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/**
 * Fixed-window hit counters for rate limiting, shared by every instance using the database.
 * Keys are opaque (route + client address + …); expired counters are purged now and then.
 */
export interface RateLimitCounterRepository {
  /**
   * Counts one hit on `key`: atomically starts a new window of `windowMs` when none is running
   * (or the last one ended), else adds to the running one.
   */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Deletes counters whose window has ended; returns how many. */
  purgeExpired(): Promise<number>;
}

export type DatabaseDialect = 'sqlite' | 'postgres';

/** The shell's persistent storage: one repository per concern. */
export interface Database {
  contactRequests: ContactRequestRepository;
  rateLimitCounters: RateLimitCounterRepository;
  dialect: DatabaseDialect;
  /** Closes the connection(s); the repositories must not be used afterwards. */
  close(): Promise<void>;
}

/** A schema change, applied once, in version order, inside a transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
