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
