import { describe, expect, it } from 'vitest';
import { acceptedAttachmentType, CONTACT_ATTACHMENT_ACCEPT } from './attachmentTypes.js';
import { SAMPLE_DOC, SAMPLE_DOCX, SAMPLE_JPEG, SAMPLE_PDF, SAMPLE_PNG } from './testing/sampleFiles.js';

describe('accepted attachment types', () => {
  it('accepts PDF, DOC, DOCX, PNG and JPG when name, declared type and content agree', () => {
    expect(acceptedAttachmentType('brief.pdf', 'application/pdf', SAMPLE_PDF)).toBe('application/pdf');
    expect(acceptedAttachmentType('old.doc', 'application/msword', SAMPLE_DOC)).toBe('application/msword');
    expect(acceptedAttachmentType('new.DOCX', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', SAMPLE_DOCX)).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(acceptedAttachmentType('chart.png', 'image/png', SAMPLE_PNG)).toBe('image/png');
    expect(acceptedAttachmentType('photo.jpg', 'image/jpeg', SAMPLE_JPEG)).toBe('image/jpeg');
    expect(acceptedAttachmentType('photo.jpeg', 'image/jpeg', SAMPLE_JPEG)).toBe('image/jpeg');
  });

  it('accepts the generic type browsers send for unknown files when the content matches', () => {
    expect(acceptedAttachmentType('brief.pdf', 'application/octet-stream', SAMPLE_PDF)).toBe('application/pdf');
  });

  it('refuses other extensions, other declared types, and content that is not what the name says', () => {
    expect(acceptedAttachmentType('run.exe', 'application/octet-stream', SAMPLE_PDF)).toBeUndefined();
    expect(acceptedAttachmentType('brief.pdf.exe', 'application/pdf', SAMPLE_PDF)).toBeUndefined();
    expect(acceptedAttachmentType('pdf', 'application/pdf', SAMPLE_PDF)).toBeUndefined();
    expect(acceptedAttachmentType('brief.pdf', 'text/html', SAMPLE_PDF)).toBeUndefined();
    expect(acceptedAttachmentType('page.html.pdf', 'application/pdf', Buffer.from('<!doctype html>'))).toBeUndefined();
    expect(acceptedAttachmentType('chart.png', 'image/png', SAMPLE_JPEG)).toBeUndefined();
    expect(acceptedAttachmentType('anim.gif', 'image/gif', Buffer.from('GIF89a'))).toBeUndefined();
    expect(acceptedAttachmentType('brief.pdf', 'application/pdf', Buffer.alloc(0))).toBeUndefined();
  });

  it('offers the same list in the file input', () => {
    expect(CONTACT_ATTACHMENT_ACCEPT).toBe('.pdf,.doc,.docx,.png,.jpg,.jpeg');
  });
});
