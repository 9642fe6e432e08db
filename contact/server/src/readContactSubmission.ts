import type { FastifyRequest } from 'fastify';
import { CONTACT_FIELDS, type ContactFormValues } from './contactForm.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_FIELD_MAX_BYTES } from './contactLimits.js';

/** The file part of a submission, as received (not yet checked). */
export interface ReceivedAttachment {
  /** The visitor's file name. */
  fileName: string;
  /** MIME type the browser declared. */
  declaredType: string;
  /** At most `CONTACT_ATTACHMENT_MAX_BYTES`; cut there when `tooLarge`. */
  bytes: Buffer;
  /** The file was longer than `CONTACT_ATTACHMENT_MAX_BYTES` (the rest was discarded). */
  tooLarge: boolean;
}

/** Everything a contact form post carried, before validation. */
export interface ContactSubmission {
  values: ContactFormValues;
  password: string;
  /** Absent when no file was chosen (browsers send an empty, nameless part then). */
  attachment: ReceivedAttachment | undefined;
  /** Text fields cut at `CONTACT_FIELD_MAX_BYTES`: always too long. */
  truncatedFields: ReadonlySet<string>;
}

/** Parser limits: one file, the form's few fields, nothing more. */
const LIMITS = { fileSize: CONTACT_ATTACHMENT_MAX_BYTES, files: 1, fields: 12, parts: 16, fieldSize: CONTACT_FIELD_MAX_BYTES };

/** A contact post refused while reading it, with the status the visitor's browser gets. */
export class ContactPostRefused extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'ContactPostRefused';
  }
}

/** A parser failure as a 4xx: malformed multipart data is the client's fault, never a 500. */
function asClientError(error: unknown): Error {
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error instanceof Error && typeof status === 'number' && status >= 400 && status < 500) return error;
  return new ContactPostRefused(400, 'The form data could not be read (malformed multipart body)');
}

/**
 * Reads a multipart contact form post. An over-long file is cut and flagged (the rest of the
 * form is still read, so the visitor's text can be shown again); unknown fields are ignored;
 * of a repeated field the first value counts. Parser errors (too many parts or files,
 * malformed data) are thrown as 4xx errors (`ContactPostRefused` 400 for malformed data, the
 * parser's own 413s), never as 500s.
 *
 * The CSRF token (contracts' `FORM_TOKEN_FIELD`, or the header) was checked by the shell before a
 * byte of the form was forwarded here (its form token gate); the service only accepts posts from
 * the edge. Why the edge reads the multipart body too: it must refuse a forged upload before the
 * file is read and stream an accepted one on unheld, so it parses only up to the token; this reader
 * is the one that reads the whole form.
 * Needs `@fastify/multipart` registered with `throwFileSizeLimit: false` (else an over-long
 * file ends the form with an error and the text after it is lost).
 */
export async function readContactSubmission(request: FastifyRequest): Promise<ContactSubmission> {
  const text = new Map<string, string>();
  const truncatedFields = new Set<string>();
  let attachment: ReceivedAttachment | undefined;

  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      if (part.type === 'file') {
        // Every file part must be read to the end, or the parser stalls; it is cut at the size limit.
        const bytes = await part.toBuffer();
        const chosen = Boolean(part.filename) || bytes.length > 0;
        if (part.fieldname === CONTACT_FIELDS.attachment && chosen && !attachment) {
          attachment = { fileName: part.filename, declaredType: part.mimetype, bytes, tooLarge: part.file.truncated };
        }
        continue;
      }
      if (text.has(part.fieldname) || typeof part.value !== 'string') continue;
      text.set(part.fieldname, part.value);
      if (part.valueTruncated) truncatedFields.add(part.fieldname);
    }
  } catch (error) {
    throw error instanceof ContactPostRefused ? error : asClientError(error);
  }

  return {
    values: {
      name: text.get(CONTACT_FIELDS.name) ?? '',
      email: text.get(CONTACT_FIELDS.email) ?? '',
      message: text.get(CONTACT_FIELDS.message) ?? '',
    },
    password: text.get(CONTACT_FIELDS.password) ?? '',
    attachment,
    truncatedFields,
  };
}
