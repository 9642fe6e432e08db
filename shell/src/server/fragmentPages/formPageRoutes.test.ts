// The contact page as the shell composes it from the contact service (its own process, started as
// `npm start -w contact` would): the layout around the service's content, the post checked at the
// edge (token in the form, early refusal of forged uploads) and streamed to the service, and a dead
// service answered with a readable 503 page while the rest of the site goes on.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
// @ts-expect-error jsdom ships no type declarations (and @types/jsdom is not installed); used as an HTML parser only.
import { JSDOM } from 'jsdom';
import { multipartBody, type FormEntry } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database/index.js';
import { uniqueClientAddress } from '../testing/browserSession.js';
import { buildProductTestApp } from '../testing/buildProductTestApp.js';
import { buildTestApp, fetchCsrf } from '../testing/buildTestApp.js';
import { developmentEdgeKey } from '@khs/team-service/edge';
import { readShellConfig } from '../config.js';
import { formPageRoutes } from './formPageRoutes.js';

/** The contact form page as the contact service declares it (its edge policy). */
const CONTACT_FORM = readShellConfig({}).services.contact.edgePolicy.formPages![0]!;
const CONTACT_IN_FLIGHT_PER_ADDRESS = CONTACT_FORM.inFlightPerAddress;
import { closedPort } from '../testing/closedPort.js';
import { rawExchange } from '../testing/rawExchange.js';
import { startTeamServiceForTest, type TeamServiceUnderTest } from '../testing/teamServiceUnderTest.js';
import { testDatabaseUrl } from '@khs/team-service/testing';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

function parse(html: string): Document {
  return (new JSDOM(html) as { window: Window }).window.document;
}

describe('contact page composed from the contact service', () => {
  let dataDir: string;
  let database: Database;
  let service: TeamServiceUnderTest;
  let app: FastifyInstance;
  const build = async (contactServiceUrl: string) => {
    const env = { DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://khs.example', CONTACT_SERVICE_URL: contactServiceUrl, SERVICE_TIMEOUT_MS: '3000' };
    return buildProductTestApp({ env, database });
  };
  /** A visit to the page: its cookie and the form's token. */
  const visit = async () => {
    const response = await app.inject({ url: '/contact' });
    expect(response.statusCode).toBe(200);
    const token = parse(response.body).querySelector<HTMLInputElement>('form input[name="_csrf"]')!.value;
    const cookie = response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    return { token, cookie };
  };
  const post = async (entries: FormEntry[], cookie: string, headers: Record<string, string> = {}) => {
    const { payload, contentType } = await multipartBody(entries);
    return app.inject({ method: 'POST', url: '/contact', remoteAddress: uniqueClientAddress(), payload, headers: { cookie, 'content-type': contentType, ...headers } });
  };
  const valid = (token: string | null, extra: FormEntry[] = []): FormEntry[] => [
    ...(token === null ? [] : ([['_csrf', token]] as FormEntry[])),
    ['name', 'Ada Lovelace'],
    ['email', 'ada@example.org'],
    ['message', 'A workshop, please.'],
    ...extra,
  ];
  const expectPage = (response: LightMyRequestResponse, status: number) => {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    const page = parse(response.body);
    // The shell's layout around the service's content.
    expect(page.querySelector('header')).not.toBeNull();
    expect(page.querySelector('footer a[href="/contact"]')).not.toBeNull();
    expect(page.body.className).toBe('page-contact');
    return page;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-page-'));
    database = await openDatabase({ dataDir });
    service = await startTeamServiceForTest('contact', { dataDir });
    app = await build(service.urls[0]!);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await service?.stop();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the form in the layout with a token bound to the cookie it sets, the islands as placeholders', async () => {
    const response = await app.inject({ url: '/contact' });
    const page = expectPage(response, 200);
    expect(page.title).toMatch(/^Contact/);
    expect(page.querySelector('main h1')?.textContent).toBe('Contact the editorial team or request a workshop');
    expect(page.querySelector('main form input[name="_csrf"]')?.getAttribute('value')).toMatch(/\S{20,}/);
    expect(response.cookies.map((cookie) => cookie.name)).toContain('_csrf');
    expect([...page.querySelectorAll('main [data-island]')].map((island) => island.getAttribute('data-island'))).toEqual([
      'mf-widgets/DialogTrigger',
      'mf-widgets/FileField',
      'mf-widgets/PasswordField',
      'mf-widgets/Dialog',
    ]);
    expect(page.querySelector('main input[type="file"]#contact-attachment')).not.toBeNull();
    expect(response.body).not.toContain('khs-fragment-island');
    // The page's look comes with its content from the contact service, in the head after the site's.
    const styles = page.querySelector('head link[rel="stylesheet"][href="/static/site.css"] ~ style')?.textContent ?? '';
    expect(styles).toContain('.page-contact .contact-form');
    expect(page.body.className).toContain('page-contact');
    // The form is listed: canonical URL on PUBLIC_BASE_URL, a card, no noindex.
    expect(page.querySelector('head link[rel="canonical"]')?.getAttribute('href')).toBe('https://khs.example/contact');
    expect(page.querySelector('head meta[property="og:url"]')?.getAttribute('content')).toBe('https://khs.example/contact');
    expect(page.querySelector('head meta[name="robots"]')).toBeNull();
  });

  it('sends a valid request to the service, which stores it; 303 to the confirmation, composed in the layout', async () => {
    const { cookie, token } = await visit();
    const before = await service.countRows('contact_requests');
    const response = await post(valid(token, [['attachment', { fileName: 'brief.pdf', type: 'application/pdf', bytes: PDF }], ['password', 'correct horse battery']]), cookie);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/contact\?sent=[A-Za-z0-9_-]{8}$/);
    expect(await service.countRows('contact_requests')).toBe(before + 1);
    const confirmation = expectPage(await app.inject({ url: String(response.headers.location), headers: { cookie } }), 200);
    expect(confirmation.querySelector('[role="status"]')?.textContent).toContain(String(response.headers.location).split('=')[1]);
    expect(confirmation.title).toMatch(/^Request sent/);
    // A confirmation is nobody's search result.
    expect(confirmation.querySelector('head meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(confirmation.querySelector('head link[rel="canonical"]')).toBeNull();
  });

  it('shows the form again with the errors (422), the visitor\'s text and a fresh token that works', async () => {
    const { cookie, token } = await visit();
    const response = await post([['_csrf', token], ['name', 'Kept Name'], ['email', 'nope'], ['message', '']], cookie);
    const page = expectPage(response, 422);
    expect(page.title).toMatch(/^Error: /);
    expect([...page.querySelectorAll('[role="alert"] a')].map((link) => link.getAttribute('href'))).toEqual(['#contact-email', '#contact-message']);
    expect(page.querySelector<HTMLInputElement>('#contact-name')!.value).toBe('Kept Name');
    const fresh = page.querySelector<HTMLInputElement>('input[name="_csrf"]')!.value;
    expect(fresh).not.toBe(token);
    expect((await post(valid(fresh), cookie)).statusCode).toBe(303);
  });

  it('refuses at the edge with the problem page, storing nothing: no token, a wrong token before a file, a file before any token, a forged field over a valid header', async () => {
    const { cookie, token } = await visit();
    const before = await service.countRows('contact_requests');
    const file: FormEntry = ['attachment', { fileName: 'a.pdf', type: 'application/pdf', bytes: PDF }];
    const refusals = [
      await post(valid(null), cookie),
      await post([['_csrf', 'forged'], file, ...valid(null)], cookie),
      await post([file, ['_csrf', token], ...valid(null)], cookie),
      await post(valid('forged'), cookie, { 'x-csrf-token': token }),
      await post(valid(token), ''),
    ];
    for (const response of refusals) {
      const page = expectPage(response, 403);
      expect(page.querySelector('main h1')?.textContent).toBe('Your request was not sent');
    }
    expect(await service.countRows('contact_requests')).toBe(before);
  });

  it('streams an attachment of the largest allowed size to the service, which stores it whole; one byte more is a 422 with the text kept', async () => {
    const { cookie, token } = await visit();
    const largest = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length, 0x20)]);
    // Over a real socket, so the body reaches the edge in chunks and is streamed on as it comes.
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { payload, contentType } = await multipartBody(valid(token, [['attachment', { fileName: 'largest.pdf', type: 'application/pdf', bytes: largest }]]));
    const stored = await fetch(`http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/contact`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': contentType }, body: new Uint8Array(payload) });
    expect(stored.status).toBe(303);
    expect(stored.headers.get('location')).toMatch(/^\/contact\?sent=[A-Za-z0-9_-]{8}$/);
    const files = readdirSync(path.join(dataDir, 'contact-attachments')).map((name) => statSync(path.join(dataDir, 'contact-attachments', name)).size);
    expect(files).toContain(largest.length);
    const fresh = await visit();
    const tooLarge = Buffer.concat([largest, Buffer.from(' ')]);
    const refused = await post([['_csrf', fresh.token], ['name', 'Kept'], ['attachment', { fileName: 'big.pdf', type: 'application/pdf', bytes: tooLarge }], ['email', 'kept@example.org'], ['message', 'After the file']], fresh.cookie);
    const page = expectPage(refused, 422);
    expect(page.getElementById('contact-attachment-error')?.textContent).toMatch(/larger than 5 MB/);
    expect(page.querySelector<HTMLTextAreaElement>('#contact-message')!.value).toBe('After the file');
  });

  it('accepts the token in the X-CSRF-Token header too', async () => {
    const { cookie, token } = await visit();
    expect((await post(valid(null), cookie, { 'x-csrf-token': token })).statusCode).toBe(303);
  });

  it('with the service down: the contact page and its post are a readable 503 in the layout, the host goes on', async () => {
    const dead = await build(`http://127.0.0.1:${await closedPort()}`);
    try {
      const response = await dead.inject({ url: '/contact' });
      const page = expectPage(response, 503);
      expect(page.querySelector('main h1')?.textContent).toBe('The contact form is not available right now');
      expect(response.headers['retry-after']).toBe('5');
      const { cookie, token } = await fetchCsrf(dead);
      const { payload, contentType } = await multipartBody(valid(token));
      const posted = await dead.inject({ method: 'POST', url: '/contact', remoteAddress: uniqueClientAddress(), payload, headers: { cookie, 'content-type': contentType } });
      expect(expectPage(posted, 503).querySelector('main h1')?.textContent).toBe('The contact form is not available right now');
      // The host's own calls are untouched.
      expect((await dead.inject({ url: '/actions/blitz/csrf/token' })).statusCode).toBe(200);
    } finally {
      await dead.close();
    }
  });
});

/** A contact post over its own socket from `localAddress`: `chunks` written `gapMs` apart (the rest unsent once answered). */
function postSlowly(origin: string, options: { headers: Record<string, string>; chunks: Buffer[]; gapMs: number; localAddress?: string }) {
  const request = http.request(`${origin}/contact`, { method: 'POST', headers: options.headers, agent: false, localAddress: options.localAddress });
  let answered = false;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', (error: NodeJS.ErrnoException) => (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') || request.destroyed ? undefined : reject(error)));
    request.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (chunk: Buffer) => parts.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(parts).toString('utf8') }));
    });
  });
  let index = 0;
  const writeNext = () => {
    if (answered || request.destroyed) return;
    if (index === options.chunks.length) return void request.end();
    request.write(options.chunks[index++]);
    setTimeout(writeNext, options.gapMs);
  };
  writeNext();
  return { answer, abort: () => request.destroy() };
}

describe('the contact post at the edge: coding, upload deadline, posts in flight per address', () => {
  let dataDir: string;
  let service: TeamServiceUnderTest;
  let app: FastifyInstance;
  let origin: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-edge-'));
    service = await startTeamServiceForTest('contact', { dataDir });
    ({ app } = await buildTestApp({
      features: [
        ({ pageConfig, runtimeUrl }) => ({
          plugin: formPageRoutes,
          options: { form: CONTACT_FORM, upstreams: service.urls, connectTimeoutMs: 1000, responseTimeoutMs: 3000, edgeKey: developmentEdgeKey('contact'), pageConfig, runtimeUrl, uploadTimeoutMs: 400 },
        }),
      ],
    }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const form = async (token: string) => multipartBody([['_csrf', token], ['name', 'Ada Lovelace'], ['email', 'ada@example.org'], ['message', 'A workshop, please.']]);

  it('answers a gzip post with its 415 page at once, storing nothing', async () => {
    const { cookie, token } = await fetchCsrf(app);
    const { payload, contentType } = await form(token);
    const before = await service.countRows('contact_requests');
    const response = await app.inject({ method: 'POST', url: '/contact', remoteAddress: uniqueClientAddress(), payload: gzipSync(payload), headers: { cookie, 'content-type': contentType, 'content-encoding': 'gzip' } });
    expect(response.statusCode).toBe(415);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(parse(response.body).querySelector('main h1')?.textContent).toBe('Your request could not be read');
    expect(await service.countRows('contact_requests')).toBe(before);
  });

  it('answers a post with Expect: 100-continue with 100 Continue, then streams it to the service (without Expect): 303, stored once', async () => {
    const { cookie, token } = await fetchCsrf(app);
    const { payload, contentType } = await form(token);
    const before = await service.countRows('contact_requests');
    const host = new URL(origin).host;
    const head = ['POST /contact HTTP/1.1', `Host: ${host}`, `Cookie: ${cookie}`, `Content-Type: ${contentType}`, `Content-Length: ${payload.length}`, 'Expect: 100-continue'].join('\r\n');
    const answer = await rawExchange(Number(new URL(origin).port), head, payload, { awaitContinue: true });
    expect([answer.interim, answer.status, answer.headers.location]).toEqual([[100], 303, expect.stringMatching(/^\/contact\?sent=/)]);
    expect(await service.countRows('contact_requests')).toBe(before + 1);
  });

  it('cuts off an upload that trickles, before and after its token, with the 408 page; nothing stored', async () => {
    const { cookie, token } = await fetchCsrf(app);
    const { payload, contentType } = await form(token);
    const before = await service.countRows('contact_requests');
    const headers = { cookie, 'content-type': contentType, 'content-length': String(payload.length) };
    // Before the token: the first bytes, then one byte every 100 ms.
    const early = postSlowly(origin, { headers, chunks: [payload.subarray(0, 10), ...Array.from(payload.subarray(10), (byte) => Buffer.from([byte]))], gapMs: 100 });
    // After the token (the form's first field): streaming to the service when the deadline passes.
    const tokenEnd = payload.indexOf(Buffer.from(token)) + token.length + 40;
    const late = postSlowly(origin, { headers, chunks: [payload.subarray(0, tokenEnd), ...Array.from(payload.subarray(tokenEnd), (byte) => Buffer.from([byte]))], gapMs: 100 });
    for (const { answer } of [early, late]) {
      const { status, body } = await answer;
      expect(status).toBe(408);
      expect(parse(body).querySelector('main h1')?.textContent).toBe('Your request could not be read');
    }
    expect(await service.countRows('contact_requests')).toBe(before);
  });

  it(`lets one address stream at most ${CONTACT_IN_FLIGHT_PER_ADDRESS} posts at once (the 429 page beyond); another address still posts`, async () => {
    const { cookie, token } = await fetchCsrf(app);
    const { payload, contentType } = await form(token);
    const headers = { cookie, 'content-type': contentType, 'content-length': String(payload.length) };
    const slow = Array.from({ length: CONTACT_IN_FLIGHT_PER_ADDRESS }, () => postSlowly(origin, { headers, chunks: Array.from(payload, (byte) => Buffer.from([byte])), gapMs: 50, localAddress: '127.0.0.4' }));
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await postSlowly(origin, { headers, chunks: [payload], gapMs: 0, localAddress: '127.0.0.4' }).answer;
      expect(refused.status).toBe(429);
      expect(parse(refused.body).querySelector('main h1')?.textContent).toBe('Too many requests from your network');
      const other = await postSlowly(origin, { headers, chunks: [payload], gapMs: 0, localAddress: '127.0.0.5' }).answer;
      expect(other.status).toBe(303);
    } finally {
      for (const { abort } of slow) abort();
    }
  });
});

const postgresUrl = testDatabaseUrl();

describe.skipIf(!postgresUrl)('two contact service instances on PostgreSQL behind the shell', () => {
  let dataDir: string;
  let database: Database;
  let service: TeamServiceUnderTest;
  let app: FastifyInstance;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-contact-scale-'));
    database = await openDatabase({ dataDir });
    service = await startTeamServiceForTest('contact', { dataDir, postgresUrl, instances: 2 });
    const env = { DATA_DIR: dataDir, CONTACT_SERVICE_URL: service.urls.join(',') };
    app = await buildProductTestApp({ env, database, publicBaseUrl: 'https://khs.example' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await service?.stop();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores every request sent through either instance once, and each confirmation finds its request', async () => {
    expect(service.instances).toHaveLength(2);
    const sent = 8;
    const locations: string[] = [];
    for (let i = 0; i < sent; i += 1) {
      const page = await app.inject({ url: '/contact' });
      const token = parse(page.body).querySelector<HTMLInputElement>('form input[name="_csrf"]')!.value;
      const cookie = page.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const { payload, contentType } = await multipartBody([['_csrf', token], ['name', `Visitor ${i}`], ['email', 'v@example.org'], ['message', 'Hello'], ['attachment', { fileName: 'b.pdf', type: 'application/pdf', bytes: PDF }]]);
      const response = await app.inject({ method: 'POST', url: '/contact', remoteAddress: uniqueClientAddress(), payload, headers: { cookie, 'content-type': contentType } });
      expect(response.statusCode).toBe(303);
      locations.push(String(response.headers.location));
    }
    expect(new Set(locations).size).toBe(sent);
    expect(await service.countRows('contact_requests')).toBe(sent);
    expect(readdirSync(path.join(dataDir, 'contact-attachments'))).toHaveLength(sent);
  });
});
