import { describe, expect, it } from 'vitest';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from './contactLimits.js';
import type { ContactSubmission } from './readContactSubmission.js';
import { SAMPLE_PDF } from './testing/sampleFiles.js';
import { validateContactSubmission } from './validateContactSubmission.js';

const submission = (overrides: Omit<Partial<ContactSubmission>, 'values'> & { values?: Partial<ContactSubmission['values']> } = {}): ContactSubmission => ({
  password: '',
  attachment: undefined,
  truncatedFields: new Set(),
  ...overrides,
  values: { name: 'Ada', email: 'ada@example.org', message: 'Hello', ...overrides.values },
});

const fieldsWithErrors = (input: ContactSubmission) => {
  const result = validateContactSubmission(input, CONTACT_ATTACHMENT_MAX_BYTES);
  return result.ok ? [] : result.errors.map((error) => error.field);
};

describe('contact submission validation', () => {
  it('accepts a minimal request, trimming name and e-mail and normalising line breaks', () => {
    const result = validateContactSubmission(
      submission({ values: { name: '  Ada ', email: ' ada@example.org\t', message: 'One\r\nTwo\rThree' } }),
      CONTACT_ATTACHMENT_MAX_BYTES,
    );
    expect(result).toEqual({
      ok: true,
      request: { name: 'Ada', email: 'ada@example.org', message: 'One\nTwo\nThree', password: undefined, attachment: undefined },
    });
  });

  it('counts characters, not UTF-16 units or CRLF pairs, at the length limits', () => {
    expect(fieldsWithErrors(submission({ values: { name: '😀'.repeat(CONTACT_NAME_MAX_LENGTH) } }))).toEqual([]);
    expect(fieldsWithErrors(submission({ values: { name: '😀'.repeat(CONTACT_NAME_MAX_LENGTH + 1) } }))).toEqual(['name']);
    expect(fieldsWithErrors(submission({ values: { message: 'a\r\n'.repeat(CONTACT_MESSAGE_MAX_LENGTH / 2) } }))).toEqual([]);
    expect(fieldsWithErrors(submission({ values: { message: 'a\r\n'.repeat(CONTACT_MESSAGE_MAX_LENGTH / 2) + 'x' } }))).toEqual(['message']);
  });

  it('refuses blank fields, control characters in the name, and fields the parser cut', () => {
    expect(fieldsWithErrors(submission({ values: { name: ' ', email: '', message: ' \n ' } }))).toEqual(['name', 'email', 'message']);
    expect(fieldsWithErrors(submission({ values: { name: 'Ada\nBcc: x' } }))).toEqual(['name']);
    expect(fieldsWithErrors(submission({ truncatedFields: new Set(['message']) }))).toEqual(['message']);
  });

  it('checks e-mail addresses', () => {
    for (const good of ['ada@example.org', 'a.b+c@sub.example.co.uk', 'ülrich@exämple.de']) {
      expect(fieldsWithErrors(submission({ values: { email: good } })), good).toEqual([]);
    }
    for (const bad of ['ada', 'ada@example', 'ada@@example.org', 'ada@exam ple.org', 'ada@example.c', '<ada@example.org>', `${'a'.repeat(250)}@example.org`]) {
      expect(fieldsWithErrors(submission({ values: { email: bad } })), bad).toEqual(['email']);
    }
  });

  it('accepts no password or one of 12 characters and more; refuses shorter ones', () => {
    expect(fieldsWithErrors(submission({ password: '' }))).toEqual([]);
    expect(fieldsWithErrors(submission({ password: 'x'.repeat(12) }))).toEqual([]);
    expect(fieldsWithErrors(submission({ password: 'x'.repeat(11) }))).toEqual(['password']);
    expect(fieldsWithErrors(submission({ password: 'x'.repeat(257) }))).toEqual(['password']);
  });

  it('checks the attachment: size (flag and byte count), emptiness and type; keeps only the base name', () => {
    const pdf = (overrides: Partial<NonNullable<ContactSubmission['attachment']>> = {}) =>
      submission({ attachment: { fileName: 'a.pdf', declaredType: 'application/pdf', bytes: SAMPLE_PDF, tooLarge: false, ...overrides } });
    expect(fieldsWithErrors(pdf({ tooLarge: true }))).toEqual(['attachment']);
    expect(fieldsWithErrors(pdf({ bytes: Buffer.alloc(0) }))).toEqual(['attachment']);
    expect(fieldsWithErrors(pdf({ fileName: 'a.txt' }))).toEqual(['attachment']);
    const result = validateContactSubmission(pdf({ fileName: 'C:\\Users\\ada\\brief\u0007.pdf' }), CONTACT_ATTACHMENT_MAX_BYTES);
    expect(result.ok && result.request.attachment).toEqual({ fileName: 'brief.pdf', mimeType: 'application/pdf', bytes: SAMPLE_PDF });
    expect(fieldsWithErrors(pdf())).toEqual([]);
    expect(validateContactSubmission(pdf(), SAMPLE_PDF.length - 1).ok).toBe(false);
  });

  it('gives back the typed values, never the password, on errors', () => {
    const result = validateContactSubmission(submission({ password: 'short', values: { name: 'Kept' } }), CONTACT_ATTACHMENT_MAX_BYTES);
    expect(result).toEqual({
      ok: false,
      errors: [{ field: 'password', message: expect.stringContaining('12 characters') }],
      values: { name: 'Kept', email: 'ada@example.org', message: 'Hello' },
    });
    expect(JSON.stringify(result)).not.toContain('short');
  });
});
