import { FORM_TOKEN_FIELD } from 'contracts';

/** Names of the contact form's fields, as posted. */
export const CONTACT_FIELDS = {
  csrf: FORM_TOKEN_FIELD,
  name: 'name',
  email: 'email',
  message: 'message',
  password: 'password',
  attachment: 'attachment',
} as const;

/** A field that can carry a validation error. */
export type ContactFieldName = 'name' | 'email' | 'message' | 'password' | 'attachment';

/** What the visitor typed that is shown again after a validation error (never the password or the file). */
export interface ContactFormValues {
  name: string;
  email: string;
  message: string;
}

/** One problem with one field, in words the visitor can act on. */
export interface ContactFieldError {
  field: ContactFieldName;
  message: string;
}

/** Id of a field's input on the page (the error summary links to it). */
export function contactFieldId(field: ContactFieldName): string {
  return `contact-${field}`;
}

/** Id of a field's error message (the input's `aria-describedby` points to it). */
export function contactFieldErrorId(field: ContactFieldName): string {
  return `contact-${field}-error`;
}

export const EMPTY_CONTACT_VALUES: ContactFormValues = { name: '', email: '', message: '' };
