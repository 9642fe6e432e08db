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
  /** The `_csrf` field, when present. */
  csrfToken: string | undefined;
  values: ContactFormValues;
  password: string;
  /** Absent when no file was chosen (browsers send an empty, nameless part then). */
  attachment: ReceivedAttachment | undefined;
  /** Text fields cut at `CONTACT_FIELD_MAX_BYTES`: always too long. */
  truncatedFields: ReadonlySet<string>;
}

/** Parser limits: one file, the form's few fields, nothing more. */
const LIMITS = { fileSize: CONTACT_ATTACHMENT_MAX_BYTES, files: 1, fields: 12, parts: 16, fieldSize: CONTACT_FIELD_MAX_BYTES };

/**
 * Reads a multipart contact form post. An over-long file is cut and flagged (the rest of the
 * form is still read, so the visitor's text can be shown again); unknown fields are ignored;
 * of a repeated field the first value counts. Parser errors (too many parts or files,
 * malformed data) are thrown as Fastify errors with their 4xx status.
 * Needs `@fastify/multipart` registered with `throwFileSizeLimit: false` (else an over-long
 * file ends the form with an error and the text after it is lost).
 */
export async function readContactSubmission(request: FastifyRequest): Promise<ContactSubmission> {
  const text = new Map<string, string>();
  const truncatedFields = new Set<string>();
  let attachment: ReceivedAttachment | undefined;

  for await (const part of request.parts({ limits: LIMITS })) {
    if (part.type === 'file') {
      // Every file part must be read to the end, or the parser stalls.
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

  return {
    csrfToken: text.get(CONTACT_FIELDS.csrf),
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
