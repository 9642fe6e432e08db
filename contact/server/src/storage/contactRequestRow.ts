import type { NewContactRequest, StoredContactRequest } from './contactRequestRepository.js';

/** Columns of `contact_requests`, in the order both dialects insert them (after `id`). */
export const CONTACT_REQUEST_COLUMNS = [
  'id',
  'name',
  'email',
  'message',
  'password_hash',
  'attachment_storage_id',
  'attachment_name',
  'attachment_size',
  'attachment_type',
] as const;

/** A `contact_requests` row as both drivers return it (PostgreSQL: BIGINT as string, TIMESTAMPTZ as Date). */
export interface ContactRequestRow {
  id: string;
  name: string;
  email: string;
  message: string;
  password_hash: string | null;
  attachment_storage_id: string | null;
  attachment_name: string | null;
  attachment_size: number | string | null;
  attachment_type: string | null;
  created_at: string | Date;
}

/** Insert parameters for `CONTACT_REQUEST_COLUMNS`. */
export function contactRequestParameters(id: string, request: NewContactRequest): Array<string | number | null> {
  const attachment = request.attachment;
  return [
    id,
    request.name,
    request.email,
    request.message,
    request.passwordHash ?? null,
    attachment?.storageId ?? null,
    attachment?.fileName ?? null,
    attachment?.sizeBytes ?? null,
    attachment?.mimeType ?? null,
  ];
}

/** The stored request of a row; optional members absent (not null) when empty. */
export function contactRequestFromRow(row: ContactRequestRow): StoredContactRequest {
  const createdAt = row.created_at instanceof Date ? row.created_at : new Date(row.created_at);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    ...(row.password_hash !== null ? { passwordHash: row.password_hash } : {}),
    ...(row.attachment_storage_id !== null
      ? {
          attachment: {
            storageId: row.attachment_storage_id,
            fileName: row.attachment_name ?? '',
            sizeBytes: Number(row.attachment_size),
            mimeType: row.attachment_type ?? '',
          },
        }
      : {}),
    createdAt: createdAt.toISOString(),
  };
}
