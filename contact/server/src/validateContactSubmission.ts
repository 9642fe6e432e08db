import { acceptedAttachmentType, CONTACT_ATTACHMENT_TYPE_NAMES } from './attachmentTypes.js';
import { CONTACT_FIELDS, type ContactFieldError, type ContactFormValues } from './contactForm.js';
import {
  CONTACT_EMAIL_MAX_LENGTH,
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_NAME_MAX_LENGTH,
  REQUEST_PASSWORD_MAX_LENGTH,
  REQUEST_PASSWORD_MIN_LENGTH,
} from './contactLimits.js';
import type { ContactSubmission } from './readContactSubmission.js';

/** A submission that passed every check, ready to be stored. */
export interface ValidContactRequest {
  name: string;
  email: string;
  message: string;
  /** Undefined when the visitor set no request password. */
  password: string | undefined;
  attachment: { fileName: string; mimeType: string; bytes: Buffer } | undefined;
}

export type ContactValidation =
  | { ok: true; request: ValidContactRequest }
  | { ok: false; errors: ContactFieldError[]; values: ContactFormValues };

/** One local part, one @, a domain with a dot; no spaces or control characters. */
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"\p{Cc}]+@[^\s@<>()[\]\\,;:"\p{Cc}_]+\.[^\s@<>()[\]\\,;:"\p{Cc}_.]{2,}$/u;
/** Control characters (line breaks included) have no place in a name or an address. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** Length in characters as people count them (code points, so an emoji is one). */
const characterCount = (value: string) => [...value].length;

/** The visitor's file name for display: no folders (old browsers send a full path), no control characters, at most 255 characters. */
const displayFileName = (fileName: string) => [...(fileName.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '')].slice(0, 255).join('');

const MEGABYTES = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Checks a contact submission: name 1-200 characters, a valid e-mail address, message
 * 1-5000 characters, attachment optional, at most 5 MB and PDF, Word, PNG or JPG, request
 * password empty or 12-256 characters. Name and e-mail are trimmed; the message is kept
 * as typed (line breaks as LF). Errors come in form order, one per field.
 */
export function validateContactSubmission(submission: ContactSubmission, attachmentMaxBytes: number): ContactValidation {
  const errors: ContactFieldError[] = [];
  const cut = (field: string) => submission.truncatedFields.has(field);
  const name = submission.values.name.trim();
  const email = submission.values.email.trim();
  // Browsers send a textarea's line breaks as CRLF; one break is one character.
  const message = submission.values.message.replace(/\r\n?/g, '\n');
  const { password, attachment } = submission;

  if (name === '') errors.push({ field: 'name', message: 'Enter your name.' });
  else if (cut(CONTACT_FIELDS.name) || characterCount(name) > CONTACT_NAME_MAX_LENGTH)
    errors.push({ field: 'name', message: `Your name can have at most ${CONTACT_NAME_MAX_LENGTH} characters.` });
  else if (CONTROL_CHARACTERS.test(name)) errors.push({ field: 'name', message: 'Your name cannot contain line breaks or control characters.' });

  if (email === '') errors.push({ field: 'email', message: 'Enter your e-mail address, so we can answer you.' });
  else if (cut(CONTACT_FIELDS.email) || email.length > CONTACT_EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email))
    errors.push({ field: 'email', message: 'Enter an e-mail address in the form name@example.com.' });

  if (message.trim() === '') errors.push({ field: 'message', message: 'Enter your message.' });
  else if (cut(CONTACT_FIELDS.message) || characterCount(message) > CONTACT_MESSAGE_MAX_LENGTH)
    errors.push({
      field: 'message',
      message: `Your message can have at most ${CONTACT_MESSAGE_MAX_LENGTH} characters; it has ${characterCount(message)}.`,
    });

  let mimeType: string | undefined;
  if (attachment) {
    if (attachment.tooLarge || attachment.bytes.length > attachmentMaxBytes)
      errors.push({ field: 'attachment', message: `The file is larger than ${MEGABYTES(attachmentMaxBytes)}. Choose a smaller file.` });
    else if (attachment.bytes.length === 0) errors.push({ field: 'attachment', message: 'The chosen file is empty.' });
    else {
      mimeType = acceptedAttachmentType(attachment.fileName, attachment.declaredType, attachment.bytes);
      if (!mimeType)
        errors.push({ field: 'attachment', message: `The file must be a ${CONTACT_ATTACHMENT_TYPE_NAMES} file.` });
    }
  }

  if (password !== '' && characterCount(password) < REQUEST_PASSWORD_MIN_LENGTH)
    errors.push({
      field: 'password',
      message: `The request password needs at least ${REQUEST_PASSWORD_MIN_LENGTH} characters, or leave it empty.`,
    });
  else if (cut(CONTACT_FIELDS.password) || characterCount(password) > REQUEST_PASSWORD_MAX_LENGTH)
    errors.push({ field: 'password', message: `The request password can have at most ${REQUEST_PASSWORD_MAX_LENGTH} characters.` });

  if (errors.length > 0) return { ok: false, errors, values: submission.values };
  return {
    ok: true,
    request: {
      name,
      email,
      message,
      password: password === '' ? undefined : password,
      attachment: attachment && mimeType ? { fileName: displayFileName(attachment.fileName), mimeType, bytes: attachment.bytes } : undefined,
    },
  };
}
