// The contact service's routes, as the shell's edge calls them (edge key, form token header), on
// SQLite and — with TEST_DATABASE_URL or DATABASE_URL — on PostgreSQL. The CSRF check, rate limit
// and early refusal of forged uploads happen at the edge: see the shell's contact page tests.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { isPageFragment, PAGE_FRAGMENT_ISLAND_MARKER_PATTERN, PAGE_FRAGMENT_MEDIA_TYPE, type PageFragment } from 'contracts';
import { EDGE_KEY_HEADER, FORM_TOKEN_HEADER, edgeKeyOf, sqliteFileName } from '@khs/team-service';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTACT_ATTACHMENTS_FOLDER, createAttachmentStore } from './attachmentStore.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from './contactLimits.js';
import { contactRoutes } from './contactRoutes.js';
import { createServiceApp } from '@khs/team-service';
import { verifyRequestPassword } from './requestPassword.js';
import { CONTACT_SERVICE_NAME, openContactStorage, type ContactStorage } from './storage/openContactStorage.js';
import type { ContactRequestRepository } from './storage/contactRequestRepository.js';
import { multipartBody, type FormEntry } from '@khs/team-service/testing';
import { SAMPLE_PDF, SAMPLE_PNG } from './testing/sampleFiles.js';

const PASSWORD = 'correct horse battery staple';
const EDGE_KEY = edgeKeyOf('a-cookie-secret-of-at-least-32-characters');
/** What the edge sends with every request it forwards: its key and the visitor's fresh form token. */
const FORM_TOKEN = 'edge-made-form-token_0123456789';
const EDGE = { [EDGE_KEY_HEADER]: EDGE_KEY, [FORM_TOKEN_HEADER]: FORM_TOKEN };

function parse(html: string): Document {
  return (new JSDOM(html) as { window: Window }).window.document;
}

/** The fragment as the shell composes it when every island keeps its placeholder (server islands off). */
function composed(response: LightMyRequestResponse): string {
  expect(String(response.headers['content-type']).split(';')[0]).toBe(PAGE_FRAGMENT_MEDIA_TYPE);
  expect(response.headers['cache-control']).toBe('no-store');
  const fragment = JSON.parse(response.body) as PageFragment;
  expect(isPageFragment(fragment)).toBe(true);
  const html = fragment.html.replace(PAGE_FRAGMENT_ISLAND_MARKER_PATTERN, (_marker, index: string) => fragment.islands[Number(index)]!.placeholderHtml);
  return `<!doctype html><html><head><title>${fragment.title}</title></head><body class="${fragment.pageClass}"><main>${html}</main></body></html>`;
}

function describeContactService(label: string, openStorage: (dataDir: string) => Promise<ContactStorage>, dispose: () => Promise<void>) {
  describe(`contact service (${label})`, () => {
  let dataDir: string;
  let storage: ContactStorage;
  let app: FastifyInstance;
  const logLines: string[] = [];
  /** When set, `create` fails (as a database outage would). */
  let failNextCreate = false;

  const fragmentOf = (query = '') => app.inject({ url: `/contact/fragment${query}`, headers: EDGE });

  /** The edge's visit to the page: the form's `_csrf` value is the token the edge sent. */
  async function visitForm(): Promise<{ cookie: string; token: string }> {
    const response = await fragmentOf();
    expect(response.statusCode).toBe(200);
    const token = parse(composed(response)).querySelector<HTMLInputElement>('input[type="hidden"][name="_csrf"]')!.value;
    expect(token).toBe(FORM_TOKEN);
    return { token, cookie: '' };
  }

  async function post(entries: readonly FormEntry[], options: { cookie?: string; headers?: Record<string, string> } = {}) {
    const { payload, contentType } = await multipartBody(entries);
    return app.inject({ method: 'POST', url: '/contact', payload, headers: { 'content-type': contentType, ...EDGE, ...options.headers } });
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
    expect(await storage.contactRequests.count()).toBe(before.count);
    expect(storedFiles()).toHaveLength(before.files);
  }

  async function snapshot() {
    return { count: await storage.contactRequests.count(), files: storedFiles().length };
  }

  /** The page the shell would show for a fragment answer with `status`. */
  function expectHtml(response: LightMyRequestResponse, status: number): Document {
    expect(response.statusCode).toBe(status);
    return parse(composed(response));
  }

  /** Ids handed out by the repository, so a 303's reference can be looked up in either dialect. */
  const createdIds: string[] = [];

  /** The stored request a 303 points at (`?sent=` is a prefix of its id). */
  async function storedFrom(response: LightMyRequestResponse) {
    expect(response.statusCode).toBe(303);
    const reference = new URL(String(response.headers.location), 'http://x').searchParams.get('sent')!;
    const id = createdIds.find((candidate) => candidate.startsWith(reference))!;
    return { reference, stored: (await storage.contactRequests.get(id))! };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-'));
    storage = await openStorage(dataDir);
    const contactRequests: ContactRequestRepository = {
      ...storage.contactRequests,
      create: async (request) => {
        if (failNextCreate) {
          failNextCreate = false;
          throw new Error('database unavailable');
        }
        const id = await storage.contactRequests.create(request);
        createdIds.push(id);
        return id;
      },
    };
    const logs = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    app = createServiceApp({ name: CONTACT_SERVICE_NAME, logger: { level: 'trace', stream: logs }, bodyLimit: 8 * 1024 * 1024 });
    await app.register(contactRoutes, { contactRequests, attachments: createAttachmentStore(dataDir), edgeKey: EDGE_KEY });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    failNextCreate = false;
  });

  describe('only the edge', () => {
    it('refuses every route without the edge key (403, nothing stored), and a wrong key', async () => {
      const before = await snapshot();
      expect((await app.inject({ url: '/contact/fragment' })).statusCode).toBe(403);
      const { payload, contentType } = await multipartBody(form(FORM_TOKEN));
      const direct = await app.inject({ method: 'POST', url: '/contact', payload, headers: { 'content-type': contentType } });
      expect(direct.statusCode).toBe(403);
      expect(parse(composed(direct)).querySelector('h1')?.textContent).toBe('Your request was not sent');
      const forged = await app.inject({ method: 'POST', url: '/contact', payload, headers: { 'content-type': contentType, [EDGE_KEY_HEADER]: edgeKeyOf('another-secret-of-at-least-32-characters') } });
      expect(forged.statusCode).toBe(403);
      await expectNothingStored(before);
    });

    it('puts no token field in the form when the edge sent none, and none in the confirmation', async () => {
      const bare = await app.inject({ url: '/contact/fragment', headers: { [EDGE_KEY_HEADER]: EDGE_KEY } });
      expect(parse(composed(bare)).querySelector('input[name="_csrf"]')).toBeNull();
      expect(parse(composed(await fragmentOf('?sent=Ab3_-xYz'))).querySelector('input[name="_csrf"]')).toBeNull();
    });

    it('answers the content of each refusal the edge makes itself, with its status', async () => {
      for (const [status, headline] of [[403, 'Your request was not sent'], [413, 'Your request was too large'], [429, 'Too many requests from your network'], [415, 'Your request could not be read']] as const) {
        const response = await app.inject({ url: `/contact/problem/${status}`, headers: EDGE });
        expect(response.statusCode).toBe(status);
        const page = parse(composed(response));
        expect(page.querySelector('h1')?.textContent).toBe(headline);
        expect(page.title).toBe('Request not sent');
      }
      expect((await app.inject({ url: '/contact/problem/200', headers: EDGE })).statusCode).toBe(404);
    });

    it('lists the four mf-widgets islands with their server-only props kept out of the markup', async () => {
      const fragment = JSON.parse((await fragmentOf()).body) as PageFragment;
      expect(fragment.islands.map((island) => island.name)).toEqual(['mf-widgets/DialogTrigger', 'mf-widgets/FileField', 'mf-widgets/PasswordField', 'mf-widgets/Dialog']);
      expect(fragment.islands[0]).toMatchObject({ inline: true, serverProps: { dialogId: 'contact-privacy' } });
      expect(fragment.islands[3]!.serverProps?.bodyHtml).toMatch(/salted one-way hash/);
      expect(fragment.html).not.toMatch(/salted one-way hash/);
      expect(fragment.html.match(PAGE_FRAGMENT_ISLAND_MARKER_PATTERN)).toHaveLength(4);
    });
  });

  describe('contact page', () => {
    it('confirms a sent request by its reference and shows the form for anything else', async () => {
      const sent = parse(composed(await fragmentOf(`?sent=Ab3_-xYz`)));
      expect(sent.querySelector('[role="status"]')?.textContent).toContain('Ab3_-xYz');
      expect(sent.querySelector('form.contact-form')).toBeNull();
      const odd = parse(composed(await fragmentOf(`?sent=%3Cscript%3E`)));
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
      expect(await storage.contactRequests.count()).toBe(before.count + 1);
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
      for (const name of readdirSync(dataDir).filter((entry) => entry.startsWith(sqliteFileName(CONTACT_SERVICE_NAME)))) {
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

  });

  describe('POST /contact: refused before validation (problem content, nothing stored)', () => {
    it('415 for a body that is not multipart (JSON with a valid header token, or url-encoded)', async () => {
      const { token } = await visitForm();
      const before = await snapshot();
      const json = await app.inject({
        method: 'POST',
        url: '/contact',
        headers: { ...EDGE, 'content-type': 'application/json' },
        payload: JSON.stringify({ _csrf: token, name: 'A', email: 'a@example.org', message: 'Hi' }),
      });
      expectHtml(json, 415);
      const urlEncoded = await app.inject({
        method: 'POST',
        url: '/contact',
        headers: { ...EDGE, 'content-type': 'application/x-www-form-urlencoded' },
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
  });
}

describeContactService(
  'SQLite',
  (dataDir) => openContactStorage({ dataDir }),
  async () => undefined,
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeContactService('PostgreSQL', (dataDir) => openContactStorage({ dataDir, databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
