import { CONTACT_POST_MAX_BYTES } from './edgePolicy.js';

/** Limits of the contact form, checked on the server only (the product has no client-side form validation). */

/** Longest name, in characters. */
export const CONTACT_NAME_MAX_LENGTH = 200;
/** Longest e-mail address (RFC 5321 path limit). */
export const CONTACT_EMAIL_MAX_LENGTH = 254;
/** Longest message, in characters. */
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;
/** Shortest request password; an empty field means "no password". */
export const REQUEST_PASSWORD_MIN_LENGTH = 12;
/** Longest request password: bounds the hashing work per request. */
export const REQUEST_PASSWORD_MAX_LENGTH = 256;
/** Largest attachment: 5 MB. */
export const CONTACT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Largest contact post accepted by its declared `Content-Length` (checked before any of the body
 * is read, at the edge and here): the largest attachment plus 1 MiB for the text fields and
 * multipart framing. Declared in the edge policy, as the shell's edge applies it too.
 * Without a declared length the parser's per-part limits bound what is read.
 */
export const CONTACT_BODY_MAX_BYTES = CONTACT_POST_MAX_BYTES;
/**
 * Largest text field the multipart parser reads (64 KiB). Every limit above is far below it
 * in UTF-8, so a field cut at this size is always too long.
 */
export const CONTACT_FIELD_MAX_BYTES = 64 * 1024;
/** Length of the request reference shown to the visitor (a prefix of the request id). */
export const CONTACT_REFERENCE_LENGTH = 8;
