/** An attachment type the editors accept: extensions, MIME type, and how its content starts. */
interface AttachmentType {
  extensions: readonly string[];
  mimeType: string;
  /** Whether the first bytes are this format's signature. */
  matches(head: Buffer): boolean;
}

const startsWith = (head: Buffer, signature: readonly number[]) =>
  head.length >= signature.length && signature.every((byte, index) => head[index] === byte);

/** PDF, Word (doc, docx), PNG and JPEG: documents and images the editors can open safely. */
const ATTACHMENT_TYPES: readonly AttachmentType[] = [
  { extensions: ['pdf'], mimeType: 'application/pdf', matches: (head) => startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d]) },
  // Word 97-2003: an OLE compound file.
  { extensions: ['doc'], mimeType: 'application/msword', matches: (head) => startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
  // Word 2007+: a ZIP container.
  {
    extensions: ['docx'],
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    matches: (head) => startsWith(head, [0x50, 0x4b, 0x03, 0x04]),
  },
  { extensions: ['png'], mimeType: 'image/png', matches: (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { extensions: ['jpg', 'jpeg'], mimeType: 'image/jpeg', matches: (head) => startsWith(head, [0xff, 0xd8, 0xff]) },
];

/** `accept` attribute of the file input: the same list the server enforces. */
export const CONTACT_ATTACHMENT_ACCEPT = ATTACHMENT_TYPES.flatMap((type) => type.extensions.map((ext) => `.${ext}`)).join(',');

/** Human list of the accepted types, for hints and error messages. */
export const CONTACT_ATTACHMENT_TYPE_NAMES = 'PDF, Word (DOC, DOCX), PNG or JPG';

/** Browsers that do not know a type send this; the content check then decides. */
const GENERIC_MIME_TYPE = 'application/octet-stream';

/**
 * The MIME type of an acceptable attachment, or undefined when it is not one. All three must
 * agree: the file name's extension, the type the browser declared (or the generic
 * `application/octet-stream`), and the file's first bytes (so a renamed file is refused).
 */
export function acceptedAttachmentType(fileName: string, declaredType: string, content: Buffer): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (!extension) return undefined;
  const type = ATTACHMENT_TYPES.find((candidate) => candidate.extensions.includes(extension));
  if (!type) return undefined;
  const declared = declaredType.split(';')[0]!.trim().toLowerCase();
  if (declared !== type.mimeType && declared !== GENERIC_MIME_TYPE) return undefined;
  return type.matches(content) ? type.mimeType : undefined;
}
