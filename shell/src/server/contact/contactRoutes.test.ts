import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildShellApp } from '../app.js';
import { readShellConfig } from '../config.js';
import { repositoryContentStore } from '../content/contentStore.js';
import { openDatabase, type ContactRequestRepository, type Database } from '../database/index.js';
import { SQLITE_FILE_NAME } from '../database/sqlite/openSqliteDatabase.js';
import { uniqueClientAddress } from '../testing/browserSession.js';
import { fetchCsrf } from '../testing/buildTestApp.js';
import { CONTACT_ATTACHMENTS_FOLDER } from './attachmentStore.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from './contactLimits.js';
import { contactRoutes } from './contactRoutes.js';
import { renderContactPage } from './renderContactPage.js';
import { verifyRequestPassword } from './requestPassword.js';
import { multipartBody, type FormEntry } from './testing/multipartBody.js';
import { SAMPLE_PDF, SAMPLE_PNG } from './testing/sampleFiles.js';

/** Stands in for the lead's GET /contact route (routes.tsx), which calls `renderContactPage` the same way. */
const PAGE_UNDER_TEST = '/contact-page-under-test';
const PASSWORD = 'correct horse battery staple';

let dataDir: string;
let db: Database;
let app: FastifyInstance;
const logLines: string[] = [];
/** When set, `create` fails (as a database outage would). */
let failNextCreate = false;

function parse(html: string): Document {
  return (new JSDOM(html) as { window: Window }).window.document;
}

/** A browser visit to the contact page: its cookie and the form's `_csrf` value. */
async function visitForm(): Promise<{ cookie: string; token: string }> {
  const response = await app.inject({ method: 'GET', url: PAGE_UNDER_TEST });
  expect(response.statusCode).toBe(200);
  const token = parse(response.body).querySelector<HTMLInputElement>('input[type="hidden"][name="_csrf"]')!.value;
  const cookie = response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { token, cookie };
}

async function post(entries: readonly FormEntry[], options: { cookie?: string; headers?: Record<string, string> } = {}) {
  const { payload, contentType } = await multipartBody(entries);
  return app.inject({
    method: 'POST',
    url: '/contact',
    // Each post from its own address: the per-address limit is tested in contactAbuse.test.ts.
    remoteAddress: uniqueClientAddress(),
    payload,
    headers: { 'content-type': contentType, ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
}

/** A complete, valid form as the page would send it, with overrides per field. */
function form(token: string, overrides: Record<string, FormEntry[1] | null> = {}): FormEntry[] {
  const fields: Record<string, FormEntry[1] | null> = {
    _csrf: token,
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    message: 'Could you run a workshop on analytical engines for our team?',
    attachment: { fileName: '', type: 'application/octet-stream', bytes: new Uint8Array() },
    password: '',
    ...overrides,
  };
  return Object.entries(fields).flatMap(([name, value]) => (value === null ? [] : [[name, value] as FormEntry]));
}

const storedFiles = () => {
  const folder = path.join(dataDir, CONTACT_ATTACHMENTS_FOLDER);
  return existsSync(folder) ? readdirSync(folder) : [];
};

async function expectNothingStored(before: { count: number; files: number }) {
  expect(await db.contactRequests.count()).toBe(before.count);
  expect(storedFiles()).toHaveLength(before.files);
}

async function snapshot() {
  return { count: await db.contactRequests.count(), files: storedFiles().length };
}

function expectHtml(response: LightMyRequestResponse, status: number): Document {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  return parse(response.body);
}

/** The stored request a 303 points at (`?sent=` is a prefix of its id). */
async function storedFrom(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(303);
  const reference = new URL(String(response.headers.location), 'http://x').searchParams.get('sent')!;
  const raw = new (await import('better-sqlite3')).default(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true });
  const row = raw.prepare('SELECT id FROM contact_requests WHERE id LIKE ?').get(`${reference}%`) as { id: string };
  raw.close();
  return { reference, stored: (await db.contactRequests.get(row.id))! };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-'));
  db = await openDatabase({ dataDir });
  const contactRequests: ContactRequestRepository = {
    ...db.contactRequests,
    create: (request) => {
      if (failNextCreate) {
        failNextCreate = false;
        return Promise.reject(new Error('database unavailable'));
      }
      return db.contactRequests.create(request);
    },
  };
  const logs = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  ({ app } = await buildShellApp({
    config: readShellConfig({}),
    content: repositoryContentStore,
    search: { host: '127.0.0.1', port: 8108, protocol: 'http' },
    logger: { level: 'trace', stream: logs },
    features: [
      ({ pageConfig, runtimeUrl }) => ({ plugin: contactRoutes, options: { contactRequests, dataDir, pageConfig, runtimeUrl } }),
      ({ pageConfig, runtimeUrl }) => ({
        plugin: async (instance: FastifyInstance) => {
          instance.get<{ Querystring: { sent?: string } }>(PAGE_UNDER_TEST, (request, reply) =>
            renderContactPage(reply, { pageConfig, runtimeUrl, sent: request.query.sent }),
          );
        },
      }),
    ],
  }));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  failNextCreate = false;
});

describe('contact page', () => {
  it('has a hidden CSRF field, is not cached, and sets the token secret cookie', async () => {
    const response = await app.inject({ method: 'GET', url: PAGE_UNDER_TEST });
    const page = expectHtml(response, 200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(page.querySelector('form input[name="_csrf"]')?.getAttribute('value')).toMatch(/\S{20,}/);
    expect(response.cookies.map((cookie) => cookie.name)).toContain('_csrf');
    expect(page.querySelector('h1')?.textContent).toBe('Contact the editorial team or request a workshop');
    expect(page.body.textContent).not.toMatch(/create an account|sign up|across devices/i);
  });

  it('confirms a sent request by its reference and shows the form for anything else', async () => {
    const sent = parse((await app.inject({ url: `${PAGE_UNDER_TEST}?sent=Ab3_-xYz` })).body);
    expect(sent.querySelector('[role="status"]')?.textContent).toContain('Ab3_-xYz');
    expect(sent.querySelector('form.contact-form')).toBeNull();
    const odd = parse((await app.inject({ url: `${PAGE_UNDER_TEST}?sent=%3Cscript%3E` })).body);
    expect(odd.querySelector('[role="status"]')).toBeNull();
    expect(odd.querySelector('form.contact-form')).not.toBeNull();
  });
});

describe('POST /contact: success', () => {
  it('stores a message without password or file and redirects (303) to the confirmation', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    const response = await post(form(token, { name: '  Ada Lovelace  ', email: ' ada@example.org ' }), { cookie });
    expect(response.headers.location).toMatch(/^\/contact\?sent=[A-Za-z0-9_-]{8}$/);
    const { stored } = await storedFrom(response);
    expect(stored).toEqual({
      id: expect.any(String),
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      message: 'Could you run a workshop on analytical engines for our team?',
      createdAt: expect.any(String),
    });
    expect(await db.contactRequests.count()).toBe(before.count + 1);
    expect(storedFiles()).toHaveLength(before.files);
  });

  it('stores the attachment as a file and only a salted scrypt hash of the password', async () => {
    const { cookie, token } = await visitForm();
    const response = await post(
      form(token, { password: PASSWORD, attachment: { fileName: 'Workshop brief.pdf', type: 'application/pdf', bytes: SAMPLE_PDF } }),
      { cookie },
    );
    const { stored } = await storedFrom(response);
    expect(stored.attachment).toEqual({
      storageId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      fileName: 'Workshop brief.pdf',
      sizeBytes: SAMPLE_PDF.length,
      mimeType: 'application/pdf',
    });
    const file = path.join(dataDir, CONTACT_ATTACHMENTS_FOLDER, stored.attachment!.storageId);
    expect(readFileSync(file).equals(SAMPLE_PDF)).toBe(true);

    expect(stored.passwordHash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]+$/);
    expect(stored.passwordHash).not.toContain(PASSWORD);
    expect(await verifyRequestPassword(PASSWORD, stored.passwordHash!)).toBe(true);
    expect(await verifyRequestPassword(`${PASSWORD}!`, stored.passwordHash!)).toBe(false);
    // Not in the database file in clear (WAL included), nor in any log line.
    for (const name of readdirSync(dataDir).filter((entry) => entry.startsWith(SQLITE_FILE_NAME))) {
      expect(readFileSync(path.join(dataDir, name)).includes(PASSWORD), name).toBe(false);
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(PASSWORD);
  });

  it('accepts a PNG, and the longest name and message', async () => {
    const { cookie, token } = await visitForm();
    const name = 'N'.repeat(CONTACT_NAME_MAX_LENGTH);
    const message = 'm'.repeat(CONTACT_MESSAGE_MAX_LENGTH);
    const response = await post(
      form(token, { name, message, attachment: { fileName: 'diagram.PNG', type: 'image/png', bytes: SAMPLE_PNG } }),
      { cookie },
    );
    const { stored } = await storedFrom(response);
    expect(stored).toMatchObject({ name, message, attachment: { mimeType: 'image/png', fileName: 'diagram.PNG' } });
  });

  it('accepts the token in the X-CSRF-Token header too (as every other call of the shell)', async () => {
    const { cookie, token } = await fetchCsrf(app);
    const response = await post(form(token, { _csrf: null }), { cookie, headers: { 'x-csrf-token': token } });
    expect(response.statusCode).toBe(303);
  });
});

describe('POST /contact: refused before validation (HTML page, nothing stored)', () => {
  it('403 without a token', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    const page = expectHtml(await post(form(token, { _csrf: null }), { cookie }), 403);
    expect(page.querySelector('h1')?.textContent).toBe('Your request was not sent');
    expect(page.querySelector('a[href="/contact"]')).not.toBeNull();
    await expectNothingStored(before);
  });

  it('403 with a wrong token, even with a file', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    const wrong = `${token.slice(0, -2)}xx`;
    expectHtml(await post(form(wrong, { attachment: { fileName: 'a.pdf', type: 'application/pdf', bytes: SAMPLE_PDF } }), { cookie }), 403);
    await expectNothingStored(before);
  });

  it('403 with a valid token but without the secret cookie it belongs to', async () => {
    const { token } = await visitForm();
    const other = await visitForm();
    const before = await snapshot();
    expectHtml(await post(form(token)), 403);
    expectHtml(await post(form(token), { cookie: other.cookie }), 403);
    await expectNothingStored(before);
  });

  it('the form field wins over a valid header token', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    expectHtml(await post(form('forged'), { cookie, headers: { 'x-csrf-token': token } }), 403);
    await expectNothingStored(before);
  });

  it('415 for a body that is not multipart (JSON with a valid header token, or url-encoded)', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    const json = await app.inject({
      remoteAddress: uniqueClientAddress(),
      method: 'POST',
      url: '/contact',
      headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify({ _csrf: token, name: 'A', email: 'a@example.org', message: 'Hi' }),
    });
    expectHtml(json, 415);
    const urlEncoded = await app.inject({
      remoteAddress: uniqueClientAddress(),
      method: 'POST',
      url: '/contact',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: token, name: 'A', email: 'a@example.org', message: 'Hi' }).toString(),
    });
    expectHtml(urlEncoded, 415);
    await expectNothingStored(before);
  });

  it('413 for more than one file', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    const pdf = { fileName: 'a.pdf', type: 'application/pdf', bytes: SAMPLE_PDF };
    expectHtml(await post([...form(token, { attachment: pdf }), ['attachment', pdf]], { cookie }), 413);
    await expectNothingStored(before);
  });

  it('500 page and no orphan file when the database fails', async () => {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    failNextCreate = true;
    const page = expectHtml(
      await post(form(token, { attachment: { fileName: 'a.pdf', type: 'application/pdf', bytes: SAMPLE_PDF } }), { cookie }),
      500,
    );
    expect(page.querySelector('h1')?.textContent).toBe('Your request could not be stored');
    await expectNothingStored(before);
  });
});

describe('POST /contact: invalid fields (422, values kept, nothing stored)', () => {
  async function expectInvalid(overrides: Record<string, FormEntry[1] | null>, fields: string[]) {
    const { cookie, token } = await visitForm();
    const before = await snapshot();
    const response = await post(form(token, overrides), { cookie });
    const page = expectHtml(response, 422);
    await expectNothingStored(before);
    const summary = page.querySelector('[role="alert"]')!;
    expect(summary).not.toBeNull();
    const links = [...summary.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(links).toEqual(fields.map((field) => `#contact-${field}`));
    for (const field of fields) {
      expect(page.getElementById(`contact-${field}`), field).not.toBeNull();
    }
    for (const field of fields) {
      const input = page.getElementById(`contact-${field}`)!;
      expect(input.getAttribute('aria-invalid'), field).toBe('true');
      // The error is the first description (a hint may follow).
      const described = page.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0]!);
      expect(described?.id).toBe(`contact-${field}-error`);
      expect(described?.textContent?.length).toBeGreaterThan(10);
    }
    // A fresh token, so the corrected form can be sent.
    expect(page.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value).toBeTruthy();
    return { page, response };
  }

  it('missing name, e-mail and message', async () => {
    const { page } = await expectInvalid({ name: '', email: '   ', message: null }, ['name', 'email', 'message']);
    expect(page.title).toMatch(/^Error: /);
  });

  it('name too long; the typed values are kept', async () => {
    const name = 'N'.repeat(CONTACT_NAME_MAX_LENGTH + 1);
    const { page } = await expectInvalid({ name, email: 'kept@example.org', message: 'Kept <b>message</b>\nline 2' }, ['name']);
    expect(page.querySelector<HTMLInputElement>('#contact-name')!.value).toBe(name);
    expect(page.querySelector<HTMLInputElement>('#contact-email')!.value).toBe('kept@example.org');
    expect(page.querySelector<HTMLTextAreaElement>('#contact-message')!.value).toBe('Kept <b>message</b>\nline 2');
    expect(page.querySelector('#contact-message b')).toBeNull();
  });

  it('message too long', async () => {
    const { page } = await expectInvalid({ message: 'm'.repeat(CONTACT_MESSAGE_MAX_LENGTH + 1) }, ['message']);
    expect(page.querySelector<HTMLTextAreaElement>('#contact-message')!.value).toHaveLength(CONTACT_MESSAGE_MAX_LENGTH + 1);
  });

  it('a message far beyond the parser field limit', async () => {
    await expectInvalid({ message: 'x'.repeat(200_000) }, ['message']);
  });

  it('bad e-mail addresses', async () => {
    for (const email of ['ada', 'ada@', '@example.org', 'ada@example', 'a da@example.org', 'ada@example.org\r\nBcc: x@y.z']) {
      await expectInvalid({ email }, ['email']);
    }
  });

  it('a request password shorter than 12 characters; the password is never shown again', async () => {
    const { page, response } = await expectInvalid({ password: 'short-pass1' }, ['password']);
    expect(response.body).not.toContain('short-pass1');
    expect(page.querySelector<HTMLInputElement>('#contact-password')!.value).toBe('');
    expect(page.getElementById('contact-password-error')?.textContent).toMatch(/^Error: .*12 characters/);
  });

  it('an attachment over 5 MB (the text after it is still kept)', async () => {
    const big = new Uint8Array(CONTACT_ATTACHMENT_MAX_BYTES + 1);
    big.set(SAMPLE_PDF);
    const { page } = await expectInvalid(
      { attachment: { fileName: 'big.pdf', type: 'application/pdf', bytes: big }, name: 'Kept Name' },
      ['attachment'],
    );
    expect(page.querySelector<HTMLInputElement>('#contact-name')!.value).toBe('Kept Name');
    expect(page.getElementById('contact-attachment-error')?.textContent).toMatch(/larger than 5 MB/);
  });

  it('keeps the message that follows an oversized file', async () => {
    const { cookie, token } = await visitForm();
    const big = { fileName: 'big.pdf', type: 'application/pdf', bytes: new Uint8Array(CONTACT_ATTACHMENT_MAX_BYTES + 10) };
    const entries = form(token, { attachment: null, message: null });
    const response = await post([...entries, ['attachment', big], ['message', 'Written after the file']], { cookie });
    const page = expectHtml(response, 422);
    expect(page.querySelector<HTMLTextAreaElement>('#contact-message')!.value).toBe('Written after the file');
  });

  it('attachments of the wrong type: by extension, by declared type, by content', async () => {
    const cases = [
      { fileName: 'tool.exe', type: 'application/octet-stream', bytes: SAMPLE_PDF },
      { fileName: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello') },
      { fileName: 'brief.pdf', type: 'text/html', bytes: SAMPLE_PDF },
      { fileName: 'brief.pdf', type: 'application/pdf', bytes: Buffer.from('<html>not a pdf</html>') },
      { fileName: 'photo.jpg', type: 'image/jpeg', bytes: SAMPLE_PNG },
      { fileName: 'no-extension', type: 'application/pdf', bytes: SAMPLE_PDF },
    ];
    for (const attachment of cases) {
      const { page } = await expectInvalid({ attachment }, ['attachment']);
      expect(page.getElementById('contact-attachment-error')?.textContent, attachment.fileName).toMatch(/PDF, Word/);
    }
  });

  it('every error at once, in form order', async () => {
    await expectInvalid(
      {
        name: '',
        email: 'nope',
        message: '',
        password: 'x',
        attachment: { fileName: 'a.gif', type: 'image/gif', bytes: Buffer.from('GIF89a') },
      },
      ['name', 'email', 'message', 'attachment', 'password'],
    );
  });
});
